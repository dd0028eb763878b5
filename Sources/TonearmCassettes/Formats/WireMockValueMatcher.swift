import Tonearm

/// WireMock's value matchers (`{"equalTo": …}`, `{"or": [...]}`…), as headers, query parameters,
/// cookies and body patterns write them, read into ``TextCondition``s. What each means was checked
/// against WireMock 2.35.1 (scripts/wiremock-diff.py):
///
/// - `equalTo` compares exactly, or ignoring case with `"caseInsensitive": true`; the option means
///   nothing beside other matchers and is ignored there, as WireMock ignores it;
/// - `matches` and `doesNotMatch` test the whole value (`.` matches line breaks too);
/// - `doesNotContain` holds when the value does not contain the text, and when there is no value;
/// - `absent` (whatever its value: WireMock reads `"absent": false` as absent too);
/// - `equalToJson` with `ignoreArrayOrder` and `ignoreExtraElements` (``JSONComparison``);
/// - `binaryEqualTo` (base64);
/// - `equalToXml` with `enablePlaceholders`, `placeholderOpeningDelimiterRegex`,
///   `placeholderClosingDelimiterRegex` and `exemptedComparisons` (``XMLComparison``), and
///   `matchesXPath` with `xPathNamespaces` and a nested matcher (``XPathExpression``), on values read
///   by ``XMLReader`` (no DTD);
/// - `before`, `after` and `equalToDateTime` with a date-time or `now` and an offset (seconds to
///   years), with `expectedOffset`/`expectedOffsetUnit`, `truncateExpected`, `truncateActual` and
///   `actualFormat` (a Java `DateTimeFormatter` pattern, ``DateTimeFormat``) (``DateTimeBound``);
/// - `hasExactly` and `includes` (WireMock 3) for headers and query parameters: a list of these,
///   tested on all the values sent (``TextCondition/hasExactly(_:)``, ``TextCondition/includes(_:)``);
/// - `matchesJsonSchema` (WireMock 3) with `schemaVersion` (`V4` … `V202012`, the default): the schema
///   as JSON or as a string holding it (``JSONSchema``: a keyword Tonearm does not evaluate is refused,
///   naming it and its place in the schema);
/// - `and`/`or` of any of these, and `not` (WireMock 3) of one: it holds where the nested matcher
///   does not, a missing value included when the nested matcher does not hold for it.
///   WireMock 2.35.1 does not know `not` and refuses the mapping (422); Tonearm reads it as 3.x does.
extension WireMockMappingReader {
    /// The matchers a value matcher object may name, besides options.
    static let valueMatcherKeys: Set<String> = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "equalToJson", "binaryEqualTo", "and", "or",
        "before", "after", "equalToDateTime", "equalToXml", "matchesXPath", "not", "matchesJsonSchema",
    ]
    private static let valueMatcherOptions: Set<String> = [
        "caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements",
        "expectedOffset", "expectedOffsetUnit", "truncateExpected", "truncateActual", "actualFormat",
        "enablePlaceholders", "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex", "exemptedComparisons",
        "xPathNamespaces", "schemaVersion",
    ]

    /// The matchers on all the values of a header or query parameter (WireMock 3).
    static let multiValueMatcherKeys: Set<String> = ["hasExactly", "includes"]

    /// The condition `matcher` describes, or `nil` (with a warning naming the member) when it uses
    /// something Tonearm does not reproduce. `what` names the matcher in the warning; `multiValue`
    /// says whether `hasExactly` and `includes` may be used (headers and query parameters, as in
    /// WireMock 3).
    mutating func valueCondition(
        _ matcher: DocumentCursor, what: String, ignoring: Set<String> = [], multiValue: Bool = false
    ) throws(CassetteError) -> TextCondition? {
        let members = try matcher.members().filter { !ignoring.contains($0.key) }
        if multiValue, let multi = members.first(where: { Self.multiValueMatcherKeys.contains($0.key) }) {
            for (key, value) in members where key != multi.key {
                warn(value, "\(what) \"\(key)\" beside \(multi.key) is not supported and was not imported")
                return nil
            }
            var conditions: [TextCondition] = []
            for element in try multi.value.elements() {
                guard let condition = try valueCondition(element, what: what) else { return nil }
                conditions.append(condition)
            }
            return multi.key == "hasExactly" ? .hasExactly(conditions) : .includes(conditions)
        }
        for (key, value) in members where !Self.valueMatcherKeys.contains(key) && !Self.valueMatcherOptions.contains(key) {
            warn(value, "\(what) \"\(key)\" is not supported and was not imported")
            return nil
        }
        guard let (key, operand) = members.first(where: { Self.valueMatcherKeys.contains($0.key) }) else {
            throw matcher.error(expected: "a matcher: \(Self.valueMatcherKeys.sorted().joined(separator: ", "))", found: members.first.map { "\"\($0.key)\"" } ?? "{}")
        }
        switch key {
        case "equalTo":
            // Strings only, as WireMock: `12`, `null` or `true` is "equalTo operand must be a non-null string".
            let text = try operand.string()
            return try matcher.member("caseInsensitive")?.bool() == true ? .equalsIgnoringCase(text) : .equals(text)
        case "contains":
            return .contains(try operand.string())
        case "doesNotContain":
            // A string only: WireMock answers 422 to `"doesNotContain": 12`.
            return .doesNotContain(try operand.string())
        case "matches":
            return .matches(try Self.wholeValuePattern(try operand.string(), at: operand))
        case "doesNotMatch":
            return .doesNotMatch(try Self.wholeValuePattern(try operand.string(), at: operand))
        case "absent":
            return .absent
        case "equalToJson":
            let comparison = JSONComparison(
                ignoresArrayOrder: try matcher.member("ignoreArrayOrder")?.bool() ?? false,
                ignoresExtraElements: try matcher.member("ignoreExtraElements")?.bool() ?? false)
            return .equalsJSON(try Self.expectedJSON(operand), comparison)
        case "binaryEqualTo":
            guard let bytes = Base64.decode(try operand.string(), ignoringWhitespace: true) else {
                throw operand.error(expected: "base64 text", found: "text that is not base64")
            }
            return .equalsBytes(bytes)
        case "equalToXml":
            return .equalsXML(try Self.expectedXML(operand), try Self.xmlComparison(matcher))
        case "matchesXPath":
            return try xPathCondition(operand, namespacesBeside: matcher)
        case "matchesJsonSchema":
            return .matchesJSONSchema(try Self.jsonSchema(operand, version: matcher.member("schemaVersion")))
        case "not":
            // One nested matcher, as WireMock 3 reads it.
            guard let negated = try valueCondition(operand, what: what) else { return nil }
            return .not(negated)
        case "before", "after", "equalToDateTime":
            let bound = try Self.dateTimeBound(operand, options: matcher)
            return key == "before" ? .before(bound) : key == "after" ? .after(bound) : .equalsDateTime(bound)
        default:
            // "and" / "or": WireMock wants two matchers or more.
            let elements = try operand.elements()
            guard elements.count >= 2 else {
                throw operand.error(expected: "a list of at least two matchers", found: "\(elements.count)")
            }
            var conditions: [TextCondition] = []
            for element in elements {
                guard let condition = try valueCondition(element, what: what) else { return nil }
                conditions.append(condition)
            }
            return key == "and" ? .allOf(conditions) : .anyOf(conditions)
        }
    }

    /// `matchesJsonSchema`'s schema (JSON, or a string holding it, as WireMock 3 takes either) read as
    /// `schemaVersion` says.
    private static func jsonSchema(_ operand: DocumentCursor, version cursor: DocumentCursor?) throws(CassetteError) -> JSONSchema {
        var version = JSONSchema.Version.v202012
        if let cursor {
            let name = try cursor.string()
            guard let named = JSONSchema.Version(rawValue: name) else {
                throw cursor.error(expected: "a schemaVersion: V4, V6, V7, V201909 or V202012", found: name.debugDescription)
            }
            version = named
        }
        let bytes: [UInt8] = if case .string(let text) = operand.node.value { Array(text.utf8) } else { JSONOutput(operand.node).compact() }
        let json: JSONValue
        do {
            json = try JSONValue(parsingVerbatim: bytes)
        } catch {
            throw operand.error(expected: "a JSON Schema in matchesJsonSchema", found: "\(error)")
        }
        do throws(JSONSchemaError) {
            return try JSONSchema(json, version: version)
        } catch {
            throw operand.error(expected: "a JSON Schema Tonearm evaluates", found: error.description)
        }
    }

    /// A date matcher's bound: its operand, then the options beside it in `matcher`.
    private static func dateTimeBound(_ operand: DocumentCursor, options matcher: DocumentCursor) throws(CassetteError) -> DateTimeBound {
        let text = try operand.string()
        guard var bound = DateTimeBound.parse(text) else {
            throw operand.error(expected: "a date-time (ISO 8601, a date, RFC 1123) or now with an offset in seconds to years", found: text.debugDescription)
        }
        // WireMock applies the offset to `now` only; beside a fixed date it is ignored.
        if let offset = try matcher.member("expectedOffset"), bound.isRelativeToNow {
            let amount = try offset.int()
            let unitCursor = try matcher.required("expectedOffsetUnit", expected: "the unit of expectedOffset (seconds to years)")
            let unit = try unitCursor.string()
            guard let moved = bound.offset(by: Int64(amount), unit: unit) else {
                throw unitCursor.error(expected: "seconds, minutes, hours, days, weeks, months or years, within ten thousand years", found: unit.debugDescription)
            }
            bound = moved
        }
        let truncationNames = "first minute of hour, first hour of day, first day of month, first day of next month, last day of month, first day of year, first day of next year or last day of year"
        if let member = try matcher.member("truncateExpected") {
            let name = try member.string()
            guard let truncation = DateTruncation(name) else { throw member.error(expected: truncationNames, found: name.debugDescription) }
            bound = bound.truncated(truncation)
        }
        if let member = try matcher.member("truncateActual") {
            let name = try member.string()
            guard let truncation = DateTruncation(name) else { throw member.error(expected: truncationNames, found: name.debugDescription) }
            bound = bound.truncatingActual(truncation)
        }
        if let member = try matcher.member("actualFormat") {
            let pattern = try member.string()
            guard let format = DateTimeFormat(pattern: pattern) else {
                throw member.error(
                    expected: "a date-time pattern of the letters y M d H h a m s S E X x Z, text in single quotes", found: pattern.debugDescription)
            }
            bound = bound.readingActual(as: format)
        }
        return bound
    }

    /// The expected document of `equalToJson`, given as JSON or as JSON in a string, with its numbers as
    /// written (WireMock compares `10` and `10.0` differently).
    static func expectedJSON(_ operand: DocumentCursor) throws(CassetteError) -> JSONValue {
        let bytes: [UInt8] = if case .string(let text) = operand.node.value { Array(text.utf8) } else { JSONOutput(operand.node).compact() }
        do {
            return try JSONValue(parsingVerbatim: bytes)
        } catch {
            throw operand.error(expected: "JSON in equalToJson", found: "\(error)")
        }
    }

    /// A WireMock regular expression as one that must match the whole value (Java's `matches()`), with
    /// `.` matching line breaks as WireMock compiles it; refused here, with its place, when the rule set
    /// could not run it in linear time.
    static func wholeValuePattern(_ regex: String, at cursor: DocumentCursor) throws(CassetteError) -> String {
        let pattern = "^(?:(?s)\(regex))\\z"
        do {
            try LinearPattern.check(regex)
            try LinearPattern.check(pattern)
        } catch {
            throw cursor.error(expected: "a usable regular expression", found: "\(regex.debugDescription) (\(error.message))")
        }
        return pattern
    }

    /// `matchesJsonPath`: `"$.path"` (the path selects something) or `{"expression": "$.path", <a value
    /// matcher>}` (something it selects satisfies the matcher), on the body parsed as JSON.
    mutating func jsonPathCondition(_ matcher: DocumentCursor) throws(CassetteError) -> BodyCondition? {
        if matcher.isString {
            return BodyCondition(.jsonPath(try Self.jsonPath(matcher)), .present)
        }
        let expression = try matcher.required("expression", expected: "a JSONPath expression")
        let path = try Self.jsonPath(expression)
        var rest: [(key: String, value: DocumentCursor)] = []
        for member in try matcher.members() where member.key != "expression" { rest.append(member) }
        guard !rest.isEmpty else { return BodyCondition(.jsonPath(path), .present) }
        guard let condition = try valueCondition(matcher, what: "matchesJsonPath matcher", ignoring: ["expression"]) else { return nil }
        return BodyCondition(.jsonPath(path), condition)
    }

    /// The JSONPath in `cursor`, refused with its place and the parser's reason when it does not parse.
    static func jsonPath(_ cursor: DocumentCursor) throws(CassetteError) -> JSONPath {
        let text = try cursor.string()
        do {
            return try JSONPath(text)
        } catch {
            throw cursor.error(expected: "a JSONPath expression", found: "\(text.debugDescription) (\(error))")
        }
    }

    /// The expected document of `equalToXml`, refused with its line and column when it is not XML
    /// Tonearm reads (a DTD included).
    static func expectedXML(_ operand: DocumentCursor) throws(CassetteError) -> XMLDocument {
        let text = try operand.string()
        do {
            return try XMLReader().read(text)
        } catch {
            throw operand.error(expected: "XML in equalToXml", found: "\(error)")
        }
    }

    /// `equalToXml`'s options beside it: placeholders and their delimiters, exempted comparisons.
    private static func xmlComparison(_ matcher: DocumentCursor) throws(CassetteError) -> XMLComparison {
        var comparison = XMLComparison()
        if try matcher.member("enablePlaceholders")?.bool() == true {
            var delimiters: [String?] = []
            for key in ["placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex"] {
                guard let member = try matcher.member(key) else {
                    delimiters.append(nil)
                    continue
                }
                let regex = try member.string()
                do {
                    try LinearPattern.check(regex)
                } catch {
                    throw member.error(expected: "a usable regular expression", found: "\(regex.debugDescription) (\(error.message))")
                }
                delimiters.append(regex)
            }
            comparison.placeholders = XMLPlaceholderDelimiters(opening: delimiters[0], closing: delimiters[1])
        }
        // A single name (not in a list) is ignored, as WireMock 2.35.1 ignores it.
        if let exempted = try matcher.member("exemptedComparisons"), !exempted.isString {
            for cursor in try exempted.elements() {
                let name = try cursor.string()
                guard XMLComparison.comparisonTypes.contains(name) else {
                    throw cursor.error(expected: "an XMLUnit comparison type (\(XMLComparison.comparisonTypes.sorted().joined(separator: ", ")))", found: name.debugDescription)
                }
                comparison.exemptedComparisons.insert(name)
            }
        }
        return comparison
    }

    /// `matchesXPath`: `"expression"` (it selects a node) or `{"expression": "…", <a value matcher>}`
    /// (a node it selects satisfies the matcher), with `xPathNamespaces` beside `matchesXPath` or
    /// inside the object.
    private mutating func xPathCondition(_ operand: DocumentCursor, namespacesBeside matcher: DocumentCursor) throws(CassetteError) -> TextCondition? {
        var namespaces = try Self.xPathNamespaces(try matcher.member("xPathNamespaces"))
        if operand.isString {
            return .matchesXPath(try Self.xPath(operand, namespaces: namespaces))
        }
        let expression = try operand.required("expression", expected: "an XPath expression")
        namespaces.merge(try Self.xPathNamespaces(try operand.member("xPathNamespaces"))) { _, inner in inner }
        let path = try Self.xPath(expression, namespaces: namespaces)
        guard try operand.members().contains(where: { $0.key != "expression" && $0.key != "xPathNamespaces" }) else {
            throw operand.error(expected: "a value matcher beside expression (WireMock: not a valid match operation)", found: "only expression")
        }
        guard let nested = try valueCondition(operand, what: "matchesXPath matcher", ignoring: ["expression", "xPathNamespaces"]) else { return nil }
        return .matchesXPath(path, nested)
    }

    private static func xPathNamespaces(_ cursor: DocumentCursor?) throws(CassetteError) -> [String: String] {
        var namespaces: [String: String] = [:]
        for (prefix, uri) in try cursor?.members() ?? [] { namespaces[prefix] = try uri.string() }
        return namespaces
    }

    /// The XPath in `cursor`, refused with its place and the construct when Tonearm does not evaluate it.
    static func xPath(_ cursor: DocumentCursor, namespaces: [String: String]) throws(CassetteError) -> XPathExpression {
        let text = try cursor.string()
        do {
            return try XPathExpression(text, namespaces: namespaces)
        } catch {
            throw cursor.error(expected: "an XPath expression in Tonearm's subset (docs/server.md, \"XPath\")", found: "\(text.debugDescription) (\(error))")
        }
    }
}
