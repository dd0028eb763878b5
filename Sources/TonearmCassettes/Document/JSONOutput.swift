import Tonearm

/// A JSON value to write, with the layout choices the cassette formats need: members in the order
/// given, short arrays kept on one line, and pre-serialised JSON bodies embedded re-indented. Strings
/// are escaped by the core's one JSON string writer (`CanonicalString`): `"` `\` and control
/// characters escaped, everything else (including `/` and non-ASCII) written as UTF-8.
indirect enum JSONOutput: Sendable {
    case null
    case bool(Bool)
    /// A number's text, written as is.
    case number(String)
    case string(String)
    case array([JSONOutput])
    /// An array written on one line, e.g. a header `["Content-Type", "text/plain"]`.
    case inlineArray([JSONOutput])
    case object([(String, JSONOutput)])
    /// Compact JSON text (a recorded body), re-indented in place.
    case json([UInt8])

    static func int(_ value: Int) -> JSONOutput { .number(String(value)) }

    /// The value pretty-printed with two-space indentation and a final newline.
    func prettyPrinted() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, level: 0)
        output.append(0x0A)
        return output
    }

    /// The value on one line without spaces.
    func compact() -> [UInt8] {
        var output: [UInt8] = []
        writeCompact(to: &output)
        return output
    }

    func write(to output: inout [UInt8], level: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): CanonicalString.appendQuoted(text, to: &output)
        case .json(let bytes): JSONLayout.appendIndented(bytes, level: level, to: &output)
        case .inlineArray(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(contentsOf: ", ".utf8) }
                element.writeCompact(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .array(let elements):
            guard !elements.isEmpty else { return output.append(contentsOf: "[]".utf8) }
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                JSONLayout.newline(level + 1, &output)
                element.write(to: &output, level: level + 1)
            }
            JSONLayout.newline(level, &output)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return output.append(contentsOf: "{}".utf8) }
            output.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                JSONLayout.newline(level + 1, &output)
                CanonicalString.appendQuoted(member.0, to: &output)
                output.append(contentsOf: ": ".utf8)
                member.1.write(to: &output, level: level + 1)
            }
            JSONLayout.newline(level, &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    func writeCompact(to output: inout [UInt8]) {
        switch self {
        case .null, .bool, .number, .string: write(to: &output, level: 0)
        case .json(let bytes): output.append(contentsOf: bytes)
        case .array(let elements), .inlineArray(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                element.writeCompact(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                CanonicalString.appendQuoted(member.0, to: &output)
                output.append(UInt8(ascii: ":"))
                member.1.writeCompact(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONOutput {
    /// A parsed document node written back out (numbers as written, strings re-escaped).
    init(_ node: DocumentNode, source: DocumentSource? = nil) {
        switch node.value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        case .binary(let bytes): self = .string(Base64.encode(bytes))
        case .array(let elements): self = .array(elements.map { JSONOutput($0, source: source) })
        case .object(let members): self = .object(members.map { ($0.key, JSONOutput($0.value, source: source)) })
        case .raw(let range):
            let bytes = source.map { Array($0.bytes[range]) } ?? []
            self = .json(bytes.withUnsafeBufferPointer { JSONLayout.compact($0) })
        }
    }
}
