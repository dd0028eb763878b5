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
        case .array: value.canonicalText
        case .object: pretty(value, indent: "")
        }
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
