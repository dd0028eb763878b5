/// How ``TextCondition/equalsXML(_:_:)`` compares a document with the expected one: as WireMock
/// 2.35.1's `equalToXml` (XMLUnit, checked against the jar by scripts/wiremock-diff.py).
///
/// - Comments are ignored; text (CDATA sections included) and attribute values are compared with
///   leading and trailing whitespace trimmed, and whitespace-only text is dropped. Whitespace inside a
///   text counts (`x y` is not `x  y`).
/// - Elements are compared by namespace URI and local name (prefixes do not matter); attributes by
///   name, in any order; namespace declarations are not attributes.
/// - Sibling elements may come in any order: each expected child is paired with the first unpaired
///   child of the same name (so same-named siblings keep their order), then the rest in order.
/// - A difference counts unless its kind is in ``exemptedComparisons`` (XMLUnit's `ComparisonType`
///   names, e.g. `ATTR_VALUE`); an attribute or child the document has beyond the expected ones counts
///   only as `ELEMENT_NUM_ATTRIBUTES` or `CHILD_NODELIST_LENGTH`, a missing one also as
///   `ATTR_NAME_LOOKUP` or `CHILD_LOOKUP`.
/// - With ``placeholders``, an expected text or attribute value that is wholly a placeholder
///   (`${xmlunit.ignore}`, `${xmlunit.isNumber}`, `${xmlunit.matchesRegex(regex)}`,
///   `${xmlunit.isDateTime}`) matches what it describes; `ignore` also matches a missing text or
///   attribute. An unknown placeholder never matches.
public struct XMLComparison: Sendable, Hashable {
    /// The kinds of difference that do not count (XMLUnit's `ComparisonType` names).
    public var exemptedComparisons: Set<String>
    /// The placeholder delimiters (regular expressions), or `nil` when placeholders are off.
    public var placeholders: XMLPlaceholderDelimiters?

    /// Creates a comparison.
    public init(exemptedComparisons: Set<String> = [], placeholders: XMLPlaceholderDelimiters? = nil) {
        self.exemptedComparisons = exemptedComparisons
        self.placeholders = placeholders
    }

    /// Every name `exemptedComparisons` may hold: XMLUnit 2's comparison types.
    public static let comparisonTypes: Set<String> = [
        "ATTR_VALUE_EXPLICITLY_SPECIFIED", "HAS_DOCTYPE_DECLARATION", "DOCTYPE_NAME", "DOCTYPE_PUBLIC_ID", "DOCTYPE_SYSTEM_ID",
        "SCHEMA_LOCATION", "NO_NAMESPACE_SCHEMA_LOCATION", "NODE_TYPE", "NAMESPACE_PREFIX", "NAMESPACE_URI", "TEXT_VALUE",
        "PROCESSING_INSTRUCTION_TARGET", "PROCESSING_INSTRUCTION_DATA", "ELEMENT_TAG_NAME", "ELEMENT_NUM_ATTRIBUTES", "ATTR_VALUE",
        "CHILD_NODELIST_LENGTH", "CHILD_NODELIST_SEQUENCE", "CHILD_LOOKUP", "ATTR_NAME_LOOKUP", "XML_VERSION", "XML_STANDALONE",
        "XML_ENCODING",
    ]

    /// The kinds WireMock counts as a difference when none is exempted.
    static let countedByDefault: Set<String> = [
        "ELEMENT_TAG_NAME", "SCHEMA_LOCATION", "NO_NAMESPACE_SCHEMA_LOCATION", "NODE_TYPE", "NAMESPACE_URI", "TEXT_VALUE",
        "PROCESSING_INSTRUCTION_TARGET", "PROCESSING_INSTRUCTION_DATA", "ELEMENT_NUM_ATTRIBUTES", "ATTR_VALUE", "CHILD_NODELIST_LENGTH",
        "CHILD_LOOKUP", "ATTR_NAME_LOOKUP",
    ]
}
