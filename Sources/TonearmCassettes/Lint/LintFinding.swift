/// One problem ``CassetteLinter`` found.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem. New checks bring new kinds, so this is a struct with static members rather
    /// than an enum: compare with `==` and read ``rawValue``.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Storage: String, Sendable, Hashable {
            case shadowedTrack = "shadowed-track"
            case unreachableRule = "unreachable-rule"
            case unredactedSecret = "unredacted-secret"
            case importWarning = "import-warning"
            case refusedRule = "refused-rule"
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// A track that can never play because an earlier track with the same key answers instead.
        public static let shadowedTrack = Kind(.shadowedTrack)
        /// A rule that can never answer because an earlier rule always answers first.
        public static let unreachableRule = Kind(.unreachableRule)
        /// A credential left in the file.
        public static let unredactedSecret = Kind(.unredactedSecret)
        /// Something the importer could not carry over.
        public static let importWarning = Kind(.importWarning)
        /// A rule the replay engine refuses to load (its pattern is outside the supported syntax), so
        /// the file lints only as far as it loads.
        public static let refusedRule = Kind(.refusedRule)

        /// The kind as `tonearm lint` prints it: `shadowed-track`, `unreachable-rule`, `unredacted-secret`,
        /// `import-warning` or `refused-rule`.
        public var rawValue: String { storage.rawValue }

        /// ``rawValue``.
        public var description: String { rawValue }
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
