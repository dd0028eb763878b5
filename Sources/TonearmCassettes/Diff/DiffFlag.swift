/// Something in the new cassette a reviewer should look at even when it is not a difference: a request
/// recorded more times than it should be, a credential left in.
public struct DiffFlag: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem. New checks bring new kinds, so this is a struct with static members rather
    /// than an enum: compare with `==` and read ``rawValue``.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Storage: String, Sendable, Hashable {
            case repeatedKey = "repeated-key"
            case unredactedSecret = "unredacted-secret"
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// A key recorded more often in the new cassette than in the old one (a retried request recorded
        /// as a failure and then a success), or several times where the replay strategy plays only the
        /// first.
        public static let repeatedKey = Kind(.repeatedKey)
        /// A credential the redaction names, still in the new cassette (the checks of `tonearm lint`).
        public static let unredactedSecret = Kind(.unredactedSecret)

        /// `repeated-key` or `unredacted-secret`, as the renderings write it.
        public var rawValue: String { storage.rawValue }

        /// ``rawValue``.
        public var description: String { rawValue }
    }

    /// The kind.
    public var kind: Kind
    /// The track concerned (the first occurrence, for a repeated key).
    public var subject: DiffSubject
    /// What is wrong and why it matters.
    public var message: String
    /// Whether the new cassette brought it: `false` when the old cassette had the same problem already,
    /// which the diff still lists but does not count as a difference.
    public var isNew: Bool

    /// Creates a flag.
    public init(kind: Kind, subject: DiffSubject, message: String, isNew: Bool) {
        self.kind = kind
        self.subject = subject
        self.message = message
        self.isNew = isNew
    }

    /// `[kind] subject: message`, then `(already in the old cassette)` when it is not new.
    public var description: String {
        "[\(kind.rawValue)] \(subject): \(message)" + (isNew ? "" : " (already in the old cassette)")
    }
}
