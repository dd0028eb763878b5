import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmURLSession

/// Scopes a cassette to one test: replays it (and records, per `RecordMode`) through
/// `URLSession.tonearm` / `TonearmURLSession/TonearmSession/current`, saves recordings when the test
/// ends, and records an issue for every request the cassette could not answer, in the task that made the
/// request (so `withKnownIssue` around it absorbs the issue) and ending with the command that records it.
///
/// ```swift
/// @Test(.cassette("signIn", matching: [.method, .url, .query, .body], strategy: .uniquePlay))
/// func signIn() async throws {
///     let client = APIClient(session: .tonearm)
///     #expect(try await client.signIn(user: "ada").token == "abc")
/// }
/// ```
/// The cassette is `__Cassettes__/<Suite>/<name>.json` beside the test file, named after the test
/// when no name is given. Options not given come from the suite's `Trait/cassettes(matching:configuration:strategy:record:redaction:streamPacing:)`
/// defaults, then from Tonearm's.
public struct CassetteTrait: TestTrait, TestScoping {
    /// The cassette's file name (`.json` added when it has no extension); the test's name when `nil`.
    public var name: String?
    /// Matching, strategy, record mode and redaction chosen at the test.
    public var options: CassetteOptions
    /// Where the trait was written, for issues about the cassette.
    public var sourceLocation: SourceLocation

    /// Creates the trait; prefer `Trait/cassette(_:matching:configuration:strategy:record:redaction:streamPacing:sourceLocation:)`.
    public init(name: String?, options: CassetteOptions, sourceLocation: SourceLocation) {
        self.name = name
        self.options = options
        self.sourceLocation = sourceLocation
    }

    /// The cassette file for `test`.
    public func cassetteURL(for test: Test) -> URL {
        let location = test.sourceLocation
        let enclosing = Array(test.id.nameComponents.dropLast())
        return CassetteLocation.url(
            filePath: location.filePath,
            suite: CassetteLocation.suiteFolder(enclosingTypes: enclosing, filePath: location.filePath),
            test: CassetteLocation.baseName(test.name), name: name)
    }

    /// Opens the cassette, runs the test with its session, then saves recordings and reports misses.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let defaults = test.traits.compactMap { $0 as? CassetteDefaultsTrait }.last?.options ?? CassetteOptions()
        let session = try TonearmSession.cassette(at: cassetteURL(for: test), options: options.filling(from: defaults))
        try await SessionScope.run(session, for: test, testCase: testCase, sourceLocation: sourceLocation, function)
    }
}

/// Suite-level cassette defaults: every ``CassetteTrait`` in the suite (and its nested suites) takes
/// the options it leaves unset from here.
///
/// ```swift
/// @Suite(.cassettes(strategy: .uniquePlay, record: .never))
/// struct BillingTests {
///     @Test(.cassette) func invoices() async throws { … }
/// }
/// ```
public struct CassetteDefaultsTrait: SuiteTrait, TestTrait {
    /// The defaults.
    public var options: CassetteOptions

    /// Applies to every test in the suite and in nested suites.
    public var isRecursive: Bool { true }

    /// Creates the defaults; prefer `Trait/cassettes(matching:configuration:strategy:record:redaction:streamPacing:)`.
    public init(options: CassetteOptions) {
        self.options = options
    }
}

extension Trait where Self == CassetteTrait {
    /// A cassette named after the test, with every option at its default.
    public static var cassette: CassetteTrait {
        CassetteTrait(name: nil, options: CassetteOptions(), sourceLocation: #_sourceLocation)
    }

    /// A cassette scoped to the test.
    ///
    /// - Parameters:
    ///   - name: The file name in `__Cassettes__/<Suite>/`; the test's name when `nil`.
    ///   - matching: The request parts that make a key, e.g. `[.method, .url, .query, .body]`.
    ///   - configuration: A full matching configuration (ignored parameters, JSON fields); `matching`
    ///     replaces its attributes when both are given.
    ///   - strategy: How tracks answer: `.repeat`, `.uniquePlay`, `.fifo()`, `.strictOrder`, …
    ///   - record: The record mode; `TONEARM_RECORD` overrides it.
    ///   - redaction: What is hidden before recording.
    ///   - streamPacing: How replayed streams are delivered (`.immediate` for a test that reads whole
    ///     answers); `TONEARM_STREAM_PACING` when `nil`, else as recorded.
    ///   - sourceLocation: Where the trait is written: a miss recorded outside the test's task is
    ///     reported there.
    public static func cassette(
        _ name: String? = nil, matching: Set<MatchAttribute>? = nil, configuration: MatchingConfiguration? = nil,
        strategy: Strategy? = nil, record: RecordMode? = nil, redaction: Redaction? = nil, streamPacing: StreamPacing? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CassetteTrait {
        CassetteTrait(
            name: name,
            options: CassetteOptions(
                configuration: CassetteDefaultsTrait.configuration(matching: matching, configuration: configuration),
                strategy: strategy, record: record, redaction: redaction, streamPacing: streamPacing),
            sourceLocation: sourceLocation)
    }
}

extension Trait where Self == CassetteDefaultsTrait {
    /// Cassette defaults for every test in the suite; each test still names its own cassette with
    /// `Trait/cassette(_:matching:configuration:strategy:record:redaction:streamPacing:sourceLocation:)`.
    public static func cassettes(
        matching: Set<MatchAttribute>? = nil, configuration: MatchingConfiguration? = nil,
        strategy: Strategy? = nil, record: RecordMode? = nil, redaction: Redaction? = nil, streamPacing: StreamPacing? = nil
    ) -> CassetteDefaultsTrait {
        CassetteDefaultsTrait(options: CassetteOptions(
            configuration: CassetteDefaultsTrait.configuration(matching: matching, configuration: configuration),
            strategy: strategy, record: record, redaction: redaction, streamPacing: streamPacing))
    }
}

extension CassetteDefaultsTrait {
    /// `configuration` with `matching` as its attributes, when either is given.
    static func configuration(
        matching: Set<MatchAttribute>?, configuration: MatchingConfiguration?
    ) -> MatchingConfiguration? {
        guard let matching else { return configuration }
        var result = configuration ?? .default
        result.attributes = matching
        return result
    }
}
