import Tonearm

/// A value a template works with: the request model, literals, helper results. Rendered the way
/// WireMock's Handlebars renders the Java objects they stand for (a list as `[a, b]`, a map as
/// `{a=1}`, a decimal as `3.0`), so a template written against WireMock gives the same text.
enum TemplateValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case decimal(Double)
    case string(String)
    /// A query parameter, header or cookie: renders as its first value, indexes as a list.
    case multi([String])
    case list([TemplateValue])
    /// Members in order; `caseInsensitive` for headers (`request.headers.content-type`).
    case map([(key: String, value: TemplateValue)], caseInsensitive: Bool)
    /// A path read with a mapping's `urlPathTemplate`: renders as the path; its members are the
    /// segments by index (`0`, `1`, …) and then the template's parameters by name (the later of two
    /// members of one name wins); `{{#each}}` walks its segments.
    case path(String, members: [(key: String, value: TemplateValue)])
    /// A result of `jsonPath`: objects render as pretty-printed JSON, arrays compact, as WireMock does.
    case json(JSONValue)

    /// The text the value renders as.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .decimal(let value): Self.javaText(value)
        case .string(let value): value
        case .multi(let values): values.first ?? ""
        case .list(let items): "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .map(let members, _): "{" + members.map { "\($0.key)=\($0.value.text)" }.joined(separator: ", ") + "}"
        case .json(let value): TemplateJSONText.text(value)
        case .path(let path, _): path
        }
    }

    /// Java's `Double.toString` for the common cases: `3.0`, `0.5`, `-2.25`.
    static func javaText(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        if value == value.rounded(), abs(value) < 1e7 { return String(Int(value)) + ".0" }
        return String(value)
    }

    /// Handlebars' truth: `null`, `false`, `""`, zero and empty collections are false.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .integer(let value): value != 0
        case .decimal(let value): value != 0
        case .string(let value): !value.isEmpty
        case .multi(let values): !values.isEmpty
        case .list(let items): !items.isEmpty
        case .map(let members, _): !members.isEmpty
        case .path(let path, _): !path.isEmpty
        case .json(let value):
            switch value {
            case .null: false
            case .bool(let flag): flag
            case .string(let text): !text.isEmpty
            case .number(let text): Double(text) != 0
            case .array(let items): !items.isEmpty
            case .object(let members): !members.isEmpty
            }
        }
    }

    /// The value as a number, when it is one or is text that reads as one.
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .decimal(let value): value
        case .string, .multi: Double(text.trimmingSpaces)
        case .json(.number(let text)): Double(text)
        default: nil
        }
    }

    /// Whether the value is an integer (as a literal, or text without a fraction).
    var isInteger: Bool {
        switch self {
        case .integer: true
        case .decimal: false
        case .string, .multi: Int(text.trimmingSpaces) != nil
        case .json(.number(let text)): Int(text) != nil
        default: false
        }
    }

    /// The member `name` (or element `name`, a number, of a list), or `nil`.
    func member(_ name: String) -> TemplateValue? {
        switch self {
        case .map(let members, let caseInsensitive):
            if caseInsensitive { return members.first { $0.key.lowercased() == name.lowercased() }?.value }
            return members.first { $0.key == name }?.value
        case .path(_, let members):
            return members.last { $0.key == name }?.value
        case .list(let items):
            guard let index = Int(name), items.indices.contains(index) else { return nil }
            return items[index]
        case .multi(let values):
            guard let index = Int(name), values.indices.contains(index) else { return nil }
            return .string(values[index])
        case .json(let value):
            switch value {
            case .object(let members): return members.first { $0.key == name }.map { .json($0.value) }
            case .array(let items):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                return .json(items[index])
            default: return nil
            }
        default:
            return nil
        }
    }

    /// What `{{#each}}` walks: elements with no key, or members with their key.
    var elements: [(key: String?, value: TemplateValue)] {
        switch self {
        case .list(let items): items.map { (nil, $0) }
        case .multi(let values): values.map { (nil, .string($0)) }
        case .map(let members, _): members.map { ($0.key, $0.value) }
        case .path(let path, _):
            // WireMock walks the path split at `/` as Java splits it: a leading empty segment kept,
            // trailing ones dropped.
            Array(path.split(separator: "/", omittingEmptySubsequences: false).reversed().drop { $0.isEmpty }.reversed())
                .map { (nil, .string(String($0))) }
        case .json(.array(let items)): items.map { (nil, .json($0)) }
        case .json(.object(let members)): members.map { ($0.key, .json($0.value)) }
        default: []
        }
    }

    /// A parsed JSON document as lists, maps and scalars (what `parseJson` gives).
    init(converting json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = Int(text).map(TemplateValue.integer) ?? .decimal(Double(text) ?? 0)
        case .string(let text): self = .string(text)
        case .array(let items): self = .list(items.map(TemplateValue.init(converting:)))
        case .object(let members): self = .map(members.map { ($0.key, TemplateValue(converting: $0.value)) }, caseInsensitive: false)
        }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
