import Tonearm

/// A JSON document the generator builds, so it can write the same document with members in another
/// order and with other spacing (what a different client library would send).
indirect enum GeneratedJSON: Sendable {
    case object([(String, GeneratedJSON)])
    case array([GeneratedJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The document as text; `reordered` reverses every object's members and adds spaces and newlines.
    func text(reordered: Bool = false) -> String {
        var output: [UInt8] = []
        write(to: &output, reordered: reordered)
        return String(decoding: output, as: UTF8.self)
    }

    /// Strings are escaped by the core's one JSON string writer, so generated bodies escape exactly
    /// as recorded ones do.
    private func write(to output: inout [UInt8], reordered: Bool) {
        switch self {
        case .object(let members):
            output.append(contentsOf: (reordered ? "{\n  " : "{").utf8)
            for (offset, (key, value)) in (reordered ? members.reversed() : members).enumerated() {
                if offset > 0 { output.append(contentsOf: (reordered ? ",\n  " : ",").utf8) }
                CanonicalString.appendQuoted(key, to: &output)
                output.append(contentsOf: (reordered ? " : " : ":").utf8)
                value.write(to: &output, reordered: reordered)
            }
            output.append(contentsOf: (reordered ? "\n}" : "}").utf8)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(contentsOf: (reordered ? ", " : ",").utf8) }
                element.write(to: &output, reordered: reordered)
            }
            output.append(UInt8(ascii: "]"))
        case .string(let string): CanonicalString.appendQuoted(string, to: &output)
        case .number(let number): output.append(contentsOf: number.utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        }
    }

    /// A copy with the first string or number leaf (depth first) replaced by `replacement`.
    func replacingFirstLeaf(with replacement: String) -> GeneratedJSON {
        var replaced = false
        return replacingFirstLeaf(with: replacement, replaced: &replaced)
    }

    private func replacingFirstLeaf(with replacement: String, replaced: inout Bool) -> GeneratedJSON {
        guard !replaced else { return self }
        switch self {
        case .object(let members):
            return .object(members.map { ($0.0, $0.1.replacingFirstLeaf(with: replacement, replaced: &replaced)) })
        case .array(let elements):
            return .array(elements.map { $0.replacingFirstLeaf(with: replacement, replaced: &replaced) })
        case .string, .number:
            replaced = true
            return .string(replacement)
        case .bool, .null:
            return self
        }
    }
}
