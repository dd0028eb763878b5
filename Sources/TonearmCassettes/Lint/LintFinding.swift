/// One problem ``CassetteLinter`` found.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable, Hashable {
        /// A track that can never play because an earlier track with the same key answers instead.
        case shadowedTrack = "shadowed-track"
        /// A rule that can never answer because an earlier rule always answers first.
        case unreachableRule = "unreachable-rule"
        /// A credential left in the file.
        case unredactedSecret = "unredacted-secret"
        /// Something the importer could not carry over.
        case importWarning = "import-warning"
    }

    /// The kind.
    public var kind: Kind
    /// Which track or rule, e.g. `track 3` or `rule "fallback"`.
    public var subject: String
    /// What is wrong and why it matters.
    public var message: String

    /// Creates a finding.
    public init(kind: Kind, subject: String, message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    /// `[kind] subject: message`.
    public var description: String { "[\(kind.rawValue)] \(subject): \(message)" }
}
