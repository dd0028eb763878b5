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
        var output = ""
        write(to: &output, reordered: reordered)
        return output
    }

    private func write(to output: inout String, reordered: Bool) {
        switch self {
        case .object(let members):
            output += reordered ? "{\n  " : "{"
            for (offset, (key, value)) in (reordered ? members.reversed() : members).enumerated() {
                if offset > 0 { output += reordered ? ",\n  " : "," }
                output += Self.quoted(key) + (reordered ? " : " : ":")
                value.write(to: &output, reordered: reordered)
            }
            output += reordered ? "\n}" : "}"
        case .array(let elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += reordered ? ", " : "," }
                element.write(to: &output, reordered: reordered)
            }
            output += "]"
        case .string(let string): output += Self.quoted(string)
        case .number(let number): output += number
        case .bool(let bool): output += bool ? "true" : "false"
        case .null: output += "null"
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

    private static func quoted(_ string: String) -> String {
        // Most generated strings need no escaping; skip the per-scalar loop for them.
        if !string.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 == 0x0A }) { return "\"" + string + "\"" }
        var output = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
