/// What must hold of a header value, query parameter, cookie, body or JSON value.
///
/// Stub formats keep bringing new tests (prefixes, case-insensitive equality, negation), so this is a
/// struct with static members rather than an enum: write `.equals("x")` or `.absent`, compare with `==`,
/// and read ``identifier`` and ``operand``.
///
/// A value may be missing (a header not sent, an empty body, nothing at a JSON Pointer): then
/// ``absent`` and ``doesNotMatch(_:)`` hold, ``present`` and the comparisons do not, and ``allOf(_:)``
/// and ``anyOf(_:)`` combine what their members say.
public struct TextCondition: Sendable, Hashable, CustomStringConvertible {
    /// Internal so compiled rules can evaluate the conditions exhaustively.
    enum Storage: Sendable, Hashable {
        case equals(String)
        case equalsIgnoringCase(String)
        case contains(String)
        case doesNotContain(String)
        case matches(String)
        case doesNotMatch(String)
        case equalsJSON(JSONValue, JSONComparison)
        case equalsBytes([UInt8])
        case before(DateTimeBound)
        case after(DateTimeBound)
        case equalsDateTime(DateTimeBound)
        case equalsXML(XMLDocument, XMLComparison)
        indirect case matchesXPath(XPathExpression, TextCondition?)
        case present
        case absent
        case allOf([TextCondition])
        case anyOf([TextCondition])
        indirect case not(TextCondition)
        case includes([TextCondition])
        case hasExactly([TextCondition])
        case matchesJSONSchema(JSONSchema)
    }

    let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// The value equals this text exactly.
    public static func equals(_ text: String) -> TextCondition { TextCondition(.equals(text)) }
    /// The value equals this text when case is ignored (each character's lowercase form is compared).
    public static func equalsIgnoringCase(_ text: String) -> TextCondition { TextCondition(.equalsIgnoringCase(text)) }
    /// The value contains this text.
    public static func contains(_ text: String) -> TextCondition { TextCondition(.contains(text)) }
    /// The value does not contain this text, compared as bytes; a missing value satisfies it (as
    /// ``doesNotMatch(_:)``, and as WireMock's `doesNotContain`).
    public static func doesNotContain(_ text: String) -> TextCondition { TextCondition(.doesNotContain(text)) }
    /// The regular expression is found in the value.
    public static func matches(_ pattern: String) -> TextCondition { TextCondition(.matches(pattern)) }
    /// The regular expression is not found in the value, or there is no value.
    public static func doesNotMatch(_ pattern: String) -> TextCondition { TextCondition(.doesNotMatch(pattern)) }
    /// The value parses as JSON equal to `expected` under `comparison` (see ``JSONComparison``).
    /// `expected` should come from ``JSONValue/init(parsingVerbatim:)`` so numbers keep their written form.
    public static func equalsJSON(_ expected: JSONValue, _ comparison: JSONComparison = JSONComparison()) -> TextCondition {
        TextCondition(.equalsJSON(expected, comparison))
    }
    /// The value's bytes (UTF-8 for text; the body as sent) equal these.
    public static func equalsBytes(_ bytes: [UInt8]) -> TextCondition { TextCondition(.equalsBytes(bytes)) }
    /// The value is a date-time (ISO 8601, a date alone, or RFC 1123; see ``DateTimeBound``) before
    /// the bound.
    public static func before(_ bound: DateTimeBound) -> TextCondition { TextCondition(.before(bound)) }
    /// The value is a date-time after the bound.
    public static func after(_ bound: DateTimeBound) -> TextCondition { TextCondition(.after(bound)) }
    /// The value is a date-time at the same instant as the bound (see ``DateTimeBound`` for zones).
    public static func equalsDateTime(_ bound: DateTimeBound) -> TextCondition { TextCondition(.equalsDateTime(bound)) }
    /// The value reads as XML (``XMLReader``: no DTD) equal to `expected` under `comparison` (see
    /// ``XMLComparison``: WireMock's `equalToXml`).
    public static func equalsXML(_ expected: XMLDocument, _ comparison: XMLComparison = XMLComparison()) -> TextCondition {
        TextCondition(.equalsXML(expected, comparison))
    }
    /// The value reads as XML in which `expression` selects a node (WireMock's `matchesXPath`), and,
    /// with `nested`, one whose value (``XPathExpression/selectedValues(in:)``) satisfies it. An
    /// expression whose value is a string, number or boolean never matches, as in WireMock 2.35.1.
    public static func matchesXPath(_ expression: XPathExpression, _ nested: TextCondition? = nil) -> TextCondition {
        TextCondition(.matchesXPath(expression, nested))
    }
    /// The value is present, whatever it is.
    public static let present = TextCondition(.present)
    /// The value is absent.
    public static let absent = TextCondition(.absent)
    /// Every one of `conditions` holds.
    public static func allOf(_ conditions: [TextCondition]) -> TextCondition { TextCondition(.allOf(conditions)) }
    /// At least one of `conditions` holds.
    public static func anyOf(_ conditions: [TextCondition]) -> TextCondition { TextCondition(.anyOf(conditions)) }
    /// `condition` does not hold (WireMock 3's `not`): a missing value satisfies it exactly when it does
    /// not satisfy `condition`.
    public static func not(_ condition: TextCondition) -> TextCondition { TextCondition(.not(condition)) }
    /// A condition on all the values of a header or query parameter sent several times (WireMock 3's
    /// `includes`): there is at least one value, and each of `conditions` holds for one of them (the
    /// same value may serve several). A single value is one value; a missing one is none.
    public static func includes(_ conditions: [TextCondition]) -> TextCondition { TextCondition(.includes(conditions)) }
    /// As ``includes(_:)``, and there are exactly as many values as `conditions` (WireMock 3's
    /// `hasExactly`; like it, a value need not be matched by a condition of its own: `1, 1, 2` has
    /// exactly `equals "1"`, `contains "1"`, `equals "2"`).
    public static func hasExactly(_ conditions: [TextCondition]) -> TextCondition { TextCondition(.hasExactly(conditions)) }
    /// The value is valid under `schema` (WireMock 3's `matchesJsonSchema`): read as JSON when it parses,
    /// else as a string, and a number, boolean or `null` that is not valid tried again as the string it
    /// was written as (`JSONSchema.validates(text:patterns:)`). A missing value is not valid.
    public static func matchesJSONSchema(_ schema: JSONSchema) -> TextCondition { TextCondition(.matchesJSONSchema(schema)) }

    /// The kind of test, as rule files name it: `equals`, `equalsIgnoringCase`, `contains`, `doesNotContain`, `matches`,
    /// `doesNotMatch`, `equalsJSON`, `equalsBytes`, `before`, `after`, `equalsDateTime`, `equalsXML`,
    /// `matchesXPath`, `present`, `absent`, `allOf`, `anyOf`, `not`, `includes`, `hasExactly` or `matchesJSONSchema`.
    public var identifier: String {
        switch storage {
        case .equals: "equals"
        case .equalsIgnoringCase: "equalsIgnoringCase"
        case .contains: "contains"
        case .doesNotContain: "doesNotContain"
        case .matches: "matches"
        case .doesNotMatch: "doesNotMatch"
        case .equalsJSON: "equalsJSON"
        case .equalsBytes: "equalsBytes"
        case .before: "before"
        case .after: "after"
        case .equalsDateTime: "equalsDateTime"
        case .equalsXML: "equalsXML"
        case .matchesXPath: "matchesXPath"
        case .present: "present"
        case .absent: "absent"
        case .allOf: "allOf"
        case .anyOf: "anyOf"
        case .not: "not"
        case .includes: "includes"
        case .hasExactly: "hasExactly"
        case .matchesJSONSchema: "matchesJSONSchema"
        }
    }

    /// The text compared against, or the regular expression for ``matches(_:)`` and
    /// ``doesNotMatch(_:)``, the expected JSON's canonical text, the date bound, the expected XML (as
    /// ``XMLWriter/compact(_:)`` writes it), the XPath expression or the schema's canonical text; `nil`
    /// for the others.
    public var operand: String? {
        switch storage {
        case .equals(let text), .equalsIgnoringCase(let text), .contains(let text), .doesNotContain(let text), .matches(let text),
            .doesNotMatch(let text): text
        case .equalsJSON(let json, _): json.canonicalText
        case .before(let bound), .after(let bound), .equalsDateTime(let bound): bound.description
        case .equalsXML(let document, _): XMLWriter.compact(document)
        case .matchesXPath(let expression, _): expression.text
        case .matchesJSONSchema(let schema): schema.json.canonicalText
        case .equalsBytes, .present, .absent, .allOf, .anyOf, .not, .includes, .hasExactly: nil
        }
    }

    /// The conditions ``allOf(_:)``, ``anyOf(_:)``, ``includes(_:)`` or ``hasExactly(_:)`` combine,
    /// or the one ``not(_:)`` negates; empty for the others.
    public var members: [TextCondition] {
        switch storage {
        case .allOf(let members), .anyOf(let members), .includes(let members), .hasExactly(let members): members
        case .not(let negated): [negated]
        default: []
        }
    }

    /// `identifier` and the operand, e.g. `equals "x"`, `absent` or `anyOf(equals "a", contains "b")`.
    public var description: String {
        switch storage {
        case .allOf(let members), .anyOf(let members), .includes(let members), .hasExactly(let members):
            return "\(identifier)(\(members.map(\.description).joined(separator: ", ")))"
        case .not(let negated):
            return "not(\(negated.description))"
        case .equalsBytes(let bytes):
            return "\(identifier) (\(bytes.count) bytes)"
        case .matchesXPath(let expression, let nested?):
            return "\(identifier) \(expression.text.debugDescription) (\(nested.description))"
        default:
            return operand.map { "\(identifier) \($0.debugDescription)" } ?? identifier
        }
    }
}
