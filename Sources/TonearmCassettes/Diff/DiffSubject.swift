import Tonearm

/// A track or a rule as a ``CassetteDiff`` names it: the request it answers, and which of the ones
/// answering that request it is.
public struct DiffSubject: Sendable, Hashable, CustomStringConvertible {
    /// Whether the subject is a recorded track or a pattern rule. Other recorded things may join, so this
    /// is a struct with static members rather than an enum: compare with `==` and read ``rawValue``.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Storage: String, Sendable, Hashable {
            case track, rule
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// A recorded exchange, paired by its request key.
        public static let track = Kind(.track)
        /// A pattern rule (rule files, WireMock and Hoverfly matchers, stub bundles), paired by its request
        /// conditions: method, pattern and target, query, header, cookie, body and scenario conditions.
        public static let rule = Kind(.rule)

        /// `track` or `rule`, as the JSON rendering writes it.
        public var rawValue: String { storage.rawValue }

        /// ``rawValue``.
        public var description: String { rawValue }
    }

    /// Track or rule.
    public var kind: Kind
    /// The request's method as recorded; a rule's method, `nil` when it answers any method.
    public var method: String?
    /// A track's URL as recorded (the new cassette's when both have the track); a rule's pattern.
    public var target: String
    /// A track's request key under the diff's configuration; `nil` for a rule.
    public var key: RequestKey?
    /// Which of the tracks with this key (rules with these conditions) it is, from 0, in file order:
    /// the i-th of a key in the old cassette is paired with the i-th in the new one.
    public var occurrence: Int
    /// The track's or rule's name, when it has one.
    public var name: String?

    /// Creates a subject.
    public init(kind: Kind, method: String?, target: String, key: RequestKey?, occurrence: Int, name: String? = nil) {
        self.kind = kind
        self.method = method
        self.target = target
        self.key = key
        self.occurrence = occurrence
        self.name = name
    }

    /// `GET https://api.example.com/items`, then `#2` for a later occurrence (counted from 1 here, as
    /// people count), or `rule "name": GET ^/items/[0-9]+$` for a rule.
    public var description: String {
        let request = (method ?? "any method") + " " + target
        let text = kind == .rule ? "rule " + (name.map { "\"\($0)\": " } ?? "") + request : request
        return occurrence > 0 ? text + " #\(occurrence + 1)" : text
    }

    /// The order subjects are listed in: tracks before rules, then by target, method, key and
    /// occurrence, so every rendering of one diff lists them the same way whatever the files' order.
    static func listedBefore(_ lhs: DiffSubject, _ rhs: DiffSubject) -> Bool {
        if lhs.kind != rhs.kind { return lhs.kind == .track }
        if !lhs.target.utf8.elementsEqual(rhs.target.utf8) { return lhs.target.utf8.lexicographicallyPrecedes(rhs.target.utf8) }
        let leftMethod = lhs.method ?? "", rightMethod = rhs.method ?? ""
        if !leftMethod.utf8.elementsEqual(rightMethod.utf8) { return leftMethod.utf8.lexicographicallyPrecedes(rightMethod.utf8) }
        let leftKey = lhs.key?.value ?? 0, rightKey = rhs.key?.value ?? 0
        if leftKey != rightKey { return leftKey < rightKey }
        return lhs.occurrence < rhs.occurrence
    }
}
