import Tonearm

/// WireMock 3's JSON and list helpers: `formatJson`, `jsonMerge`, `jsonRemove`, `jsonArrayAdd`, `toJson`,
/// `array`, `arrayJoin`, `pickRandom` and `val`. Written from WireMock 3.13.2's documentation and the
/// expected values of its own tests (TemplateWireMock3HelperTests holds them). A helper given what it
/// cannot use renders WireMock's error text, `[ERROR: …]`, as WireMock does, rather than failing the
/// request.
enum TemplateJSONHelpers {
    /// WireMock's rendering of a helper's error.
    static func error(_ message: String) -> TemplateValue { .string("[ERROR: \(message)]") }

    /// `{{formatJson text format='pretty'|'compact'}}`, or its block form: the JSON re-written.
    static func formatJson(_ input: TemplateValue?, options: [String: TemplateValue]) -> TemplateValue {
        let text = input.flatMap(string)?.trimmingSpaces ?? ""
        guard !text.isEmpty else { return error("formatJson should take a block of JSON to format or a single parameter of type String") }
        var compact = false
        switch options["format"] {
        case nil: break
        case .string("pretty")?: break
        case .string("compact")?: compact = true
        case .string(let other)?: return error("formatJson: format [\(other)] should be one of [pretty, compact]")
        case let other?:
            return error("formatJson: format [\(other.text)] of type [\(javaType(other)) should be a Format or a String and one of [pretty, compact]]")
        }
        guard let json = try? JSONValue(parsingVerbatim: Array(text.utf8)) else {
            return error("There was an error parsing the json. Please make sure the json is valid")
        }
        return .string(compact ? TemplateJSONText.compact(json) : TemplateJSONText.pretty(json))
    }

    /// `{{jsonMerge base other removeNulls=true}}`, or with the other object as the block: `other`'s
    /// members set into `base`, objects merged member by member, anything else replaced; with
    /// `removeNulls`, a `null` in `other` removes the member.
    static func jsonMerge(_ base: TemplateValue, _ other: TemplateValue?, options: [String: TemplateValue]) -> TemplateValue {
        guard let baseText = string(base) else { return error("Base JSON parameter must be a string") }
        guard let baseJSON = try? JSONValue(parsingVerbatim: Array(baseText.utf8)) else {
            return error("Base JSON is not valid JSON ('\(baseText)')")
        }
        guard case .object = baseJSON else { return error("Base JSON is not a JSON object ('\(baseText)')") }
        guard let otherText = other.flatMap(string) else { return error("JSON to merge must be a string") }
        guard let otherJSON = try? JSONValue(parsingVerbatim: Array(otherText.utf8)) else {
            return error("JSON to merge is not valid JSON ('\(otherText)')")
        }
        guard case .object = otherJSON else { return error("JSON to merge is not a JSON object ('\(otherText)')") }
        return .string(TemplateJSONText.compact(merged(baseJSON, otherJSON, removingNulls: options["removeNulls"]?.isTruthy == true)))
    }

    private static func merged(_ base: JSONValue, _ other: JSONValue, removingNulls: Bool) -> JSONValue {
        guard case .object(var members) = base, case .object(let changes) = other else { return other }
        for change in changes {
            let index = members.firstIndex { $0.key == change.key }
            if removingNulls, case .null = change.value {
                if let index { members.remove(at: index) }
                continue
            }
            var value = change.value
            if case .object = change.value, let index, case .object = members[index].value {
                value = merged(members[index].value, change.value, removingNulls: removingNulls)
            }
            if let index { members[index].value = value } else { members.append(JSONMember(key: change.key, value: value)) }
        }
        return .object(members)
    }

    /// `{{jsonRemove json '$.path'}}`: the JSON without what the path selects; unchanged when it selects
    /// nothing.
    static func jsonRemove(_ input: TemplateValue, _ arguments: ArraySlice<TemplateValue>) -> TemplateValue {
        guard let text = string(input) else { return error("Input JSON must be a string") }
        if text == "null" { return .string(text) }
        guard arguments.count == 1, let first = arguments.first else { return error("A single JSONPath expression parameter must be supplied") }
        guard let pathText = string(first) else { return error("JSONPath parameter must be a string") }
        guard let json = try? JSONValue(parsingVerbatim: Array(text.utf8)) else { return error("Input JSON string is not valid JSON ('\(text)')") }
        guard let path = try? JSONPath(pathText), !pathText.isEmpty else {
            return error("JSONPath parameter is not a valid JSONPath expression ('\(pathText)')")
        }
        guard let removed = path.removing(from: json) else {
            return error("Delete operation cannot be applied to JSONPath expression ('\(pathText)')")
        }
        // A path that selects nothing gives the input back as it was written.
        return path.select(in: json).isEmpty ? .string(text) : .string(TemplateJSONText.compact(removed))
    }

    /// `{{jsonArrayAdd json item jsonPath='$.list' flatten=true maxItems=3}}`, or with the item as the
    /// block: the item added at the end of the array (the document, or the one `jsonPath` names), its
    /// elements one by one with `flatten`; the oldest dropped beyond `maxItems`.
    static func jsonArrayAdd(_ input: TemplateValue, _ item: TemplateValue?, options: [String: TemplateValue]) -> TemplateValue {
        guard let text = string(input) else { return error("Base JSON must be a string") }
        // (`null` is no document to add to: its JSON library reads it as nothing.)
        guard let json = try? JSONValue(parsingVerbatim: Array(text.utf8)), json != .null else {
            return error("Base JSON is not valid JSON ('\(text)')")
        }
        var path: JSONPath?
        switch options["jsonPath"] {
        case nil: break
        case let option?:
            guard let pathText = string(option) else { return error("jsonPath option must be a string") }
            guard let parsed = try? JSONPath(pathText), !pathText.isEmpty else {
                return error("jsonPath option is not valid JSONPath expression ('\(pathText)')")
            }
            path = parsed
        }
        let target = path.map { $0.isDefinite ? $0.select(in: json).first : nil } ?? json
        guard case .array = target else {
            let detail = path.map { "root: '\(text)', jsonPath: '\($0.text)'" } ?? "'\(text)'"
            return error("Target JSON is not a JSON array (\(detail))")
        }
        guard let itemText = item.flatMap(string) else { return error("Item-to-add JSON must be a string") }
        guard let added = try? JSONValue(parsingVerbatim: Array(itemText.utf8)) else {
            return error("Item-to-add JSON is not valid JSON ('\(itemText)')")
        }
        var flatten = false
        switch options["flatten"] {
        case nil: break
        case .bool(let flag)?: flatten = flag
        default: return error("flatten option must be a boolean")
        }
        var maximum: Int?
        switch options["maxItems"] {
        case nil: break
        case .integer(let count)?:
            guard count >= 0 else { return error("maxItems option integer must be positive") }
            maximum = count
        default: return error("maxItems option must be an integer")
        }
        let append: (JSONValue) -> JSONValue? = { array in
            guard case .array(var items) = array else { return array }
            if flatten, case .array(let more) = added { items += more } else { items.append(added) }
            if let maximum, items.count > maximum { items.removeFirst(items.count - maximum) }
            return .array(items)
        }
        let result = path.flatMap { $0.changing(in: json, append) } ?? append(json) ?? json
        return .string(TemplateJSONText.compact(result))
    }

    /// `{{toJson value}}`: the value as pretty-printed JSON; nothing for null.
    static func toJson(_ value: TemplateValue) -> TemplateValue {
        if case .null = value { return .string("") }
        return .string(TemplateJSONText.pretty(json(value)))
    }

    /// `{{arrayJoin ',' list prefix='[' suffix=']'}}` (or the items themselves after the separator): the
    /// items joined, each written as `write` makes it (its text, or the helper's block rendered with the
    /// item as its context).
    static func arrayJoin<Failure: Error>(
        _ arguments: [TemplateValue], options: [String: TemplateValue], write: (TemplateValue) throws(Failure) -> String
    ) throws(Failure) -> TemplateValue {
        guard let separator = arguments.first.flatMap(string) else { return error("Separator parameter must be a String") }
        guard arguments.count > 1 else { return error("The parameter must be list") }
        let items = listed(arguments[1...])
        guard !items.isEmpty else { return .string("") }
        var texts: [String] = []
        for item in items { texts.append(try write(item)) }
        return .string((options["prefix"]?.text ?? "") + texts.joined(separator: separator) + (options["suffix"]?.text ?? ""))
    }

    /// `{{pickRandom 'a' 'b' 'c'}}`, `{{pickRandom list}}`, `count=2`: one item at random, or `count`
    /// distinct ones as a list.
    static func pickRandom(_ arguments: [TemplateValue], options: [String: TemplateValue]) -> TemplateValue {
        guard let first = arguments.first, !isNull(first) else {
            return error("Must specify either a single list argument or a set of single value arguments.")
        }
        var items = listed(arguments[...])
        guard !items.isEmpty else { return .null }
        if case .integer(let count)? = options["count"], count > 0 {
            items.shuffle()
            return .list(Array(items.prefix(count)))
        }
        return items.randomElement() ?? .null
    }

    /// `{{val value or='default'}}` (or `default=`): the value, or the default when it is null; with
    /// `assign='name'`, the value is kept under that name and nothing is rendered.
    static func val(_ value: TemplateValue, options: [String: TemplateValue], variables: inout [String: TemplateValue]) -> TemplateValue {
        let result = isNull(value) ? (options["or"] ?? options["default"] ?? .null) : value
        if let name = options["assign"], !isNull(name) {
            variables[name.text] = result
            return .null
        }
        return result
    }

    // MARK: Values

    /// The value as text when it is text (a literal, the body, a header), else `nil`: WireMock's helpers
    /// refuse a list, a map or a number where they want a string.
    private static func string(_ value: TemplateValue) -> String? {
        switch value {
        case .string(let text): text
        case .path(let path, _): path
        case .multi(let values): values.first
        default: nil
        }
    }

    private static func isNull(_ value: TemplateValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// A single list argument's items, or the arguments themselves.
    private static func listed(_ arguments: ArraySlice<TemplateValue>) -> [TemplateValue] {
        if arguments.count == 1, let only = arguments.first {
            switch only {
            case .list, .multi, .json(.array): return only.elements.map(\.value)
            default: break
            }
        }
        return Array(arguments)
    }

    /// The Java type WireMock names in an error about a value of this kind.
    private static func javaType(_ value: TemplateValue) -> String {
        switch value {
        case .integer: "java.lang.Integer"
        case .decimal: "java.lang.Double"
        case .bool: "java.lang.Boolean"
        case .list, .multi: "java.util.ArrayList"
        case .map: "java.util.LinkedHashMap"
        default: "java.lang.String"
        }
    }

    /// A template value as JSON: lists as arrays, maps as objects, a header or query parameter with one
    /// value as that value.
    static func json(_ value: TemplateValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .number(String(number))
        case .decimal(let number): .number(TemplateValue.javaText(number))
        case .string(let text): .string(text)
        case .multi(let values): values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        case .list(let items): .array(items.map(json))
        case .map(let members, _): .object(members.map { JSONMember(key: $0.key, value: json($0.value)) })
        case .json(let document): document
        case .path(let path, _): .string(path)
        }
    }
}
