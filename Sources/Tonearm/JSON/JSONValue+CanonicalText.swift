extension JSONValue {
    /// The RFC 8785 text of this value: what `JSONCanonicalizer` produces for the document it was
    /// parsed from, and a faithful serialisation of values built in code.
    ///
    /// `.number` text is written as given: values from `init(parsing:)` always hold canonical text,
    /// and a value built in code is trusted to do the same rather than silently altered.
    public var canonicalText: String {
        var out: [UInt8] = []
        appendCanonical(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func appendCanonical(to out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text):
            out.append(contentsOf: text.utf8)
        case .string(let text):
            out.append(UInt8(ascii: "\""))
            CanonicalString.appendEscaped(text, to: &out)
            out.append(UInt8(ascii: "\""))
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in Self.canonicalOrder(members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\""))
                CanonicalString.appendEscaped(member.key, to: &out)
                out.append(UInt8(ascii: "\""))
                out.append(UInt8(ascii: ":"))
                member.value.appendCanonical(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
