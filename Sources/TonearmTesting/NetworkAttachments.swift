import Foundation
import Testing
import TonearmURLSession

/// When a test scoped by a Tonearm trait (`Trait/cassette(_:matching:configuration:strategy:record:redaction:streamPacing:sourceLocation:)`,
/// `Trait/stubs(_:sourceLocation:)`, `.server`) attaches what happened on the network to its report:
/// each miss (`<test> misses.txt` and `<test> misses.json`) and every exchange as HAR (`<test>.har`).
///
/// Xcode 26 shows a test's attachments in its report; `swift test --attachments-path DIR` writes them
/// to `DIR` on every platform. `TONEARM_ATTACHMENTS` (`on-failure`, `always`, `never`) overrides the
/// choice made in code, e.g. for one CI job.
///
/// A growable set of values (docs/public-api.md): read it with ``rawValue`` or `==`.
public struct NetworkAttachments: Sendable, Hashable, CustomStringConvertible {
    /// `on-failure`, `always` or `never`, as `TONEARM_ATTACHMENTS` takes it.
    public let rawValue: String

    private init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The value named `rawValue`, or `nil` for a name that is none of them.
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// When the test fails (an issue, a thrown error) or a request missed: the default.
    public static let onFailure = NetworkAttachments("on-failure")
    /// After every test, passing or not.
    public static let always = NetworkAttachments("always")
    /// Never.
    public static let never = NetworkAttachments("never")

    /// Every value, in the order above.
    public static let allCases: [NetworkAttachments] = [.onFailure, .always, .never]

    /// The environment variable that overrides the choice made in code.
    public static let environmentVariable = "TONEARM_ATTACHMENTS"

    /// The raw value.
    public var description: String { rawValue }

    /// Whether a test that `failed` (or saw a miss) attaches.
    package func attaches(failed: Bool) -> Bool {
        self == .always || (self == .onFailure && failed)
    }

    /// What applies to `test`: `TONEARM_ATTACHMENTS` in `environment`, else the innermost
    /// ``NetworkAttachmentsTrait`` on the test or its suites, else ``onFailure``.
    package static func resolve(for test: Test, environment: [String: String]) throws(TonearmError) -> NetworkAttachments {
        try fromEnvironment(environment) ?? test.traits.compactMap { $0 as? NetworkAttachmentsTrait }.last?.attachments ?? .onFailure
    }

    /// What `TONEARM_ATTACHMENTS` in `environment` chooses, or `nil` when it is not set (XCTest's
    /// helpers, which have no traits, then attach on failure).
    package static func fromEnvironment(_ environment: [String: String]) throws(TonearmError) -> NetworkAttachments? {
        guard let raw = environment[environmentVariable], !raw.isEmpty else { return nil }
        guard let chosen = NetworkAttachments(rawValue: raw) else {
            throw .environment(
                variable: environmentVariable,
                detail: "\"\(raw)\" is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return chosen
    }
}

/// Chooses ``NetworkAttachments`` for a test, or for every test of a suite and its nested suites.
///
/// ```swift
/// @Suite(.networkAttachments(.always))
/// struct CheckoutTests { … }
/// ```
public struct NetworkAttachmentsTrait: SuiteTrait, TestTrait {
    /// What the tests attach.
    public var attachments: NetworkAttachments

    /// Applies to every test in the suite and in nested suites.
    public var isRecursive: Bool { true }

    /// Creates the trait; prefer `Trait/networkAttachments(_:)`.
    public init(attachments: NetworkAttachments) {
        self.attachments = attachments
    }
}

extension Trait where Self == NetworkAttachmentsTrait {
    /// When Tonearm-scoped tests attach their misses and exchanges to the test report.
    public static func networkAttachments(_ attachments: NetworkAttachments) -> NetworkAttachmentsTrait {
        NetworkAttachmentsTrait(attachments: attachments)
    }
}
