extension JSONValue {
    /// The value at `pointer`, or `nil` when nothing is there. A `*` token takes the first element or
    /// member that leads to a value.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        value(at: pointer.tokens[...])
    }

    private func value(at tokens: ArraySlice<String>) -> JSONValue? {
        guard let token = tokens.first else { return self }
        let rest = tokens.dropFirst()
        switch self {
        case .object(let members):
            if token == "*" { return members.lazy.compactMap { $0.value.value(at: rest) }.first }
            return members.first { $0.key.unicodeScalars.elementsEqual(token.unicodeScalars) }?
                .value.value(at: rest)
        case .array(let elements):
            if token == "*" { return elements.lazy.compactMap { $0.value(at: rest) }.first }
            guard let position = Int(token), elements.indices.contains(position) else { return nil }
            return elements[position].value(at: rest)
        default:
            return nil
        }
    }
}
