extension JSONValue {
    /// JSON equality: scalar-wise strings and names, order-independent objects (see `JSONValue`).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(left), .bool(right)):
            return left == right
        case let (.number(left), .number(right)):
            return left.utf8.elementsEqual(right.utf8)
        case let (.string(left), .string(right)):
            return left.utf8.elementsEqual(right.utf8)
        case let (.array(left), .array(right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0 == $1 }
        case let (.object(left), .object(right)):
            guard left.count == right.count else { return false }
            return zip(Self.canonicalOrder(left), Self.canonicalOrder(right)).allSatisfy { $0 == $1 }
        default:
            return false
        }
    }

    /// Hashes consistently with `==`: exact scalars, members in canonical order.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .number(let text):
            hasher.combine(2)
            hashScalars(of: text, into: &hasher)
        case .string(let text):
            hasher.combine(3)
            hashScalars(of: text, into: &hasher)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            for element in elements { hasher.combine(element) }
        case .object(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            for member in Self.canonicalOrder(members) { hasher.combine(member) }
        }
    }

    /// `members` sorted by name in RFC 8785 order (UTF-16 code units), stably so duplicate names
    /// built in code keep their relative order. Parsed objects are already sorted and are returned
    /// as they are.
    static func canonicalOrder(_ members: [JSONMember]) -> [JSONMember] {
        var sorted = true
        for index in members.indices.dropFirst()
        where CanonicalKeyOrder.compare(members[index - 1].key, members[index].key) > 0 {
            sorted = false
            break
        }
        if sorted { return members }
        return members.enumerated().sorted { lhs, rhs in
            let order = CanonicalKeyOrder.compare(lhs.element.key, rhs.element.key)
            return order != 0 ? order < 0 : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
