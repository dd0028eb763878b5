extension JSONValue {
    /// Builds the value whose first event `reader` just returned, reading the rest of it.
    ///
    /// `JSONValue(parsing:)` reads the canonicaliser's output with it, so member order, numbers and
    /// escapes are already canonical; nesting is bounded by the reader's depth limit.
    package static func read(_ event: JSONReader.Event, from reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue {
        switch event {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .arrayStart:
            var elements: [JSONValue] = []
            while let next = try reader.next(), next != .arrayEnd {
                elements.append(try read(next, from: &reader))
            }
            return .array(elements)
        case .objectStart:
            var members: [JSONMember] = []
            while case .key(let key)? = try reader.next() {
                guard let first = try reader.next() else { break }
                members.append(JSONMember(key: key, value: try read(first, from: &reader)))
            }
            return .object(members)
        case .key, .objectEnd, .arrayEnd:
            // The reader never starts a value with these; treat a broken stream as an empty value.
            return .null
        }
    }
}
