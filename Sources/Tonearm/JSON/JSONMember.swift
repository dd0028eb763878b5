/// One name/value pair of a JSON object.
///
/// A pair rather than a dictionary entry because Swift dictionaries key `String`s by canonical
/// equivalence, which would merge members that JSON keeps apart (`"\u{C5}"` and `"A\u{30A}"`).
public struct JSONMember: Sendable, Hashable {
    /// The member name, exactly as decoded.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }

    /// Compares names scalar by scalar (see `JSONValue`), then values.
    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key.utf8.elementsEqual(rhs.key.utf8) && lhs.value == rhs.value
    }

    /// Hashes the name's exact scalars and the value, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hashScalars(of: key, into: &hasher)
        hasher.combine(value)
    }
}
