import Testing
import TonearmURLSession

/// Scopes inline stubs to one test, through `URLSession.tonearm` / `TonearmURLSession/TonearmSession/current`;
/// requests no stub answers fail, and are reported as issues when the test ends.
///
/// ```swift
/// @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))))
/// func showsName() async throws { … }
/// ```
public struct StubsTrait: TestTrait, SuiteTrait, TestScoping {
    /// The stubs, in declared order.
    public var stubs: [Stub]
    /// Where the trait was written, for issues.
    public var sourceLocation: SourceLocation

    /// Each test in a suite gets its own copy of the stubs (and so its own queues).
    public var isRecursive: Bool { true }

    /// Creates the trait; prefer `Trait/stubs(_:sourceLocation:)`.
    public init(stubs: [Stub], sourceLocation: SourceLocation) {
        self.stubs = stubs
        self.sourceLocation = sourceLocation
    }

    /// Scopes test functions only: a suite's stubs are applied to each of its tests.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubsTrait? {
        test.isSuite ? nil : self
    }

    /// Compiles the stubs into a fresh engine, runs the test with it, and reports misses.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let session = try TonearmSession.stubs(stubs)
        try await SessionScope.run(session, for: test, testCase: testCase, sourceLocation: sourceLocation, function)
    }
}

extension Trait where Self == StubsTrait {
    /// Inline stubs for the test (or every test of a suite).
    public static func stubs(_ stubs: Stub..., sourceLocation: SourceLocation = #_sourceLocation) -> StubsTrait {
        StubsTrait(stubs: stubs, sourceLocation: sourceLocation)
    }
}
