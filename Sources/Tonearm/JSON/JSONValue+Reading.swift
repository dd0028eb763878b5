extension JSONValue {
    /// Builds the value whose first token `reader` just returned, reading the rest of it.
    ///
    /// `JSONValue(parsing:)` reads the canonicaliser's output with it, so member order, numbers and
    /// escapes are already canonical; nesting is bounded by the reader's depth limit.
    package static func read(_ token: JSONReader.Token, from reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue {
        switch token {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .arrayStart:
            var elements: [JSONValue] = []
            while try reader.nextElement() {
                elements.append(try read(reader.value(), from: &reader))
            }
            return .array(elements)
        case .objectStart:
            var members: [JSONMember] = []
            while let key = try reader.nextKey() {
                members.append(JSONMember(key: key, value: try read(reader.value(), from: &reader)))
            }
            return .object(members)
        }
    }
}
