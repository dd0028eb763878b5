import Tonearm

/// How WireMock renders a JSON value a template picked out (`jsonPath`): scalars as their text, arrays
/// compact, objects pretty-printed the way its JSON library does (`{\n  "a" : 1\n}`).
enum TemplateJSONText {
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): text
        case .array: compact(value)
        case .object: pretty(value)
        }
    }

    /// `value` as its JSON library writes it compactly: members in their order, no spaces
    /// (`{"id":456,"roles":["admin"]}`), what WireMock 3's JSON helpers give.
    static func compact(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            return "{" + members.map { JSONValue.string($0.key).canonicalText + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case .array(let items):
            return "[" + items.map(compact).joined(separator: ",") + "]"
        default:
            return value.canonicalText
        }
    }

    /// `value` as its JSON library pretty-prints it: objects a member a line, indented two spaces, with
    /// ` : `; arrays on one line, `[ 1, 2 ]`.
    static func pretty(_ value: JSONValue) -> String {
        pretty(value, indent: "")
    }

    private static func pretty(_ value: JSONValue, indent: String) -> String {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "{ }" }
            let inner = indent + "  "
            let lines = members.map { inner + JSONValue.string($0.key).canonicalText + " : " + pretty($0.value, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            guard !items.isEmpty else { return "[ ]" }
            return "[ " + items.map { pretty($0, indent: indent) }.joined(separator: ", ") + " ]"
        default:
            return value.canonicalText
        }
    }
}
