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

/// The delimiters of XMLUnit placeholders, as regular expressions: `\$\{` and `\}` by default.
public struct XMLPlaceholderDelimiters: Sendable, Hashable {
    /// What opens a placeholder.
    public var opening: String
    /// What closes it.
    public var closing: String

    /// Creates delimiters; `nil` keeps the default of each.
    public init(opening: String? = nil, closing: String? = nil) {
        self.opening = opening ?? "\\$\\{"
        self.closing = closing ?? "\\}"
    }
}

/// A placeholder found in the expected document.
enum XMLPlaceholder: Sendable {
    case ignore
    case isNumber
    case isDateTime
    case matchesRegex(LinearPattern)
    /// A keyword XMLUnit does not know: never matches.
    case unknown

    func accepts(_ value: String?) -> Bool {
        switch self {
        case .ignore: return true
        case .unknown: return false
        case .isNumber: return value.map(Self.isNumber) ?? false
        case .isDateTime:
            guard let value, let bound = DateTimeBound.parse(value) else { return false }
            return !bound.isRelativeToNow
        case .matchesRegex(let pattern): return value.map { pattern.matches($0) } ?? false
        }
    }

    /// A decimal number as Java's `Double.parseDouble` reads one (sign, digits, point, exponent).
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var digits = 0
        while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { digits += 1; bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { digits += 1; bytes = bytes.dropFirst() }
        }
        guard digits > 0 else { return false }
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            var exponentDigits = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { exponentDigits += 1; bytes = bytes.dropFirst() }
            guard exponentDigits > 0 else { return false }
        }
        if let byte = bytes.first, "dDfF".utf8.contains(byte) { bytes = bytes.dropFirst() }
        return bytes.isEmpty
    }
}

/// A document normalised for comparison: comments gone, text trimmed and merged, whitespace-only text
/// dropped, placeholders found (in the expected document).
struct XMLComparedElement: Sendable {
    struct Attribute: Sendable {
        var name: XMLName
        var value: String
        var placeholder: XMLPlaceholder?
    }

    indirect enum Child: Sendable {
        case element(XMLComparedElement)
        case text(String, XMLPlaceholder?)
        case processingInstruction(target: String, data: String)
    }

    var name: XMLName
    var attributes: [Attribute]
    var children: [Child]

    /// `element` normalised; `placeholder` finds the placeholder a text or value is, if any.
    init(_ element: XMLElement, placeholder: (String) -> XMLPlaceholder?) {
        name = element.name
        attributes = element.attributes.map { attribute in
            let value = Self.trimmed(attribute.value)
            return Attribute(name: attribute.name, value: value, placeholder: placeholder(value))
        }
        var children: [Child] = []
        var pending = ""
        func flush() {
            let text = Self.trimmed(pending)
            pending = ""
            if !text.isEmpty { children.append(.text(text, placeholder(text))) }
        }
        for child in element.children {
            switch child {
            case .text(let text): pending += text
            case .comment: break
            case .element(let nested):
                flush()
                children.append(.element(XMLComparedElement(nested, placeholder: placeholder)))
            case .processingInstruction(let target, let data):
                flush()
                children.append(.processingInstruction(target: target, data: data))
            }
        }
        flush()
        self.children = children
    }

    /// Java's `String.trim()`: every character up to U+0020 at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }), let last = scalars.lastIndex(where: { $0.value > 0x20 }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}

/// The expected document of an `equalsXML` condition, ready to compare documents with.
struct XMLExpectation: Sendable {
    let root: XMLComparedElement
    let counted: Set<String>

    /// Compiles the expectation; `compile` compiles the placeholder patterns (and refuses bad ones).
    init(_ document: XMLDocument, _ comparison: XMLComparison, compile: (String) throws(RuleError) -> LinearPattern) throws(RuleError) {
        counted = XMLComparison.countedByDefault.subtracting(comparison.exemptedComparisons)
        guard let delimiters = comparison.placeholders else {
            root = XMLComparedElement(document.root, placeholder: { _ in nil })
            return
        }
        let opening = try compile("^\\s*(?:\(delimiters.opening))\\s*\\z")
        let closing = try compile("^\\s*(?:\(delimiters.closing))\\s*\\z")
        var regexes: [String: LinearPattern] = [:]
        // Patterns inside matchesRegex placeholders are compiled ahead, so the closure cannot throw.
        var found: [String] = []
        _ = XMLComparedElement(document.root) { text in
            if let keyword = Self.keyword(in: text, opening: opening, closing: closing) { found.append(keyword) }
            return nil
        }
        for keyword in found where keyword.hasPrefix("matchesRegex(") && keyword.hasSuffix(")") {
            let regex = String(keyword.dropFirst("matchesRegex(".count).dropLast())
            regexes[keyword] = try compile("^(?:\(regex))\\z")
        }
        root = XMLComparedElement(document.root) { text in
            guard let keyword = Self.keyword(in: text, opening: opening, closing: closing) else { return nil }
            switch keyword {
            case "ignore": return .ignore
            case "isNumber": return .isNumber
            case "isDateTime": return .isDateTime
            default:
                if let regex = regexes[keyword] { return .matchesRegex(regex) }
                if keyword.hasPrefix("isDateTime(") { return .isDateTime }
                return .unknown
            }
        }
    }

    /// The keyword of a text that is wholly a placeholder (`ignore` of `${xmlunit.ignore}`), else `nil`.
    /// Only short texts are placeholders; the search is quadratic in a placeholder's length.
    static func keyword(in text: String, opening: LinearPattern, closing: LinearPattern) -> String? {
        let marker = "xmlunit."
        guard text.utf8.count <= 512, let range = text.firstRange(of: marker) else { return nil }
        guard opening.matches(String(text[..<range.lowerBound])) else { return nil }
        let body = text[range.upperBound...]
        var end = body.endIndex
        while end > body.startIndex {
            end = body.index(before: end)
            guard end > body.startIndex else { break }
            if closing.matches(String(body[end...])) {
                let keyword = XMLComparedElement.trimmed(String(body[..<end]))
                return keyword.isEmpty ? nil : keyword
            }
        }
        return nil
    }

    /// Whether `document` equals the expected one under the comparison.
    func matches(_ document: XMLDocument) -> Bool {
        compare(root, XMLComparedElement(document.root, placeholder: { _ in nil }))
    }

    private func differs(_ kind: String) -> Bool { counted.contains(kind) }

    private func compare(_ control: XMLComparedElement, _ test: XMLComparedElement) -> Bool {
        if control.name.localName != test.name.localName, differs("ELEMENT_TAG_NAME") { return false }
        if control.name.namespace != test.name.namespace, differs("NAMESPACE_URI") { return false }
        // Attributes. XMLUnit consults placeholders only on a difference: an equal value is equal.
        var missingIgnored = 0
        for attribute in control.attributes {
            let other = test.attributes.first { $0.name.localName == attribute.name.localName && $0.name.namespace == attribute.name.namespace }
            guard let other else {
                if case .ignore? = attribute.placeholder {
                    missingIgnored += 1
                } else if differs("ATTR_NAME_LOOKUP") {
                    return false
                }
                continue
            }
            if other.value != attribute.value, !(attribute.placeholder?.accepts(other.value) ?? false), differs("ATTR_VALUE") { return false }
        }
        // The count differs unless the only difference is `ignore` attributes the document leaves out.
        let attributeCounts = (control.attributes.count, test.attributes.count)
        if attributeCounts.0 != attributeCounts.1, attributeCounts.0 - missingIgnored != attributeCounts.1, differs("ELEMENT_NUM_ATTRIBUTES") {
            return false
        }
        // Children: an expected `ignore` text matches missing text.
        if control.children.count == 1, test.children.isEmpty, case .text(_, .ignore?) = control.children[0] { return true }
        if control.children.count != test.children.count, differs("CHILD_NODELIST_LENGTH") { return false }
        var paired = [Int?](repeating: nil, count: control.children.count)
        var taken = [Bool](repeating: false, count: test.children.count)
        for (index, child) in control.children.enumerated() {
            if let match = test.children.indices.first(where: { !taken[$0] && Self.sameKind(child, test.children[$0]) }) {
                paired[index] = match
                taken[match] = true
            }
        }
        var free = test.children.indices.filter { !taken[$0] }[...]
        for index in control.children.indices where paired[index] == nil {
            guard let next = free.popFirst() else {
                if differs("CHILD_LOOKUP") { return false }
                continue
            }
            paired[index] = next
        }
        for (index, child) in control.children.enumerated() {
            guard let other = paired[index] else { continue }
            if !compare(child, test.children[other]) { return false }
        }
        return true
    }

    private func compare(_ control: XMLComparedElement.Child, _ test: XMLComparedElement.Child) -> Bool {
        switch (control, test) {
        case (.element(let expected), .element(let actual)):
            return compare(expected, actual)
        case (.text(let expected, let placeholder), .text(let actual, _)):
            return expected == actual || (placeholder?.accepts(actual) ?? false) || !differs("TEXT_VALUE")
        case (.processingInstruction(let target, let data), .processingInstruction(let otherTarget, let otherData)):
            if target != otherTarget, differs("PROCESSING_INSTRUCTION_TARGET") { return false }
            return data == otherData || !differs("PROCESSING_INSTRUCTION_DATA")
        case (.text(_, .ignore?), _):
            return true
        default:
            return !differs("NODE_TYPE")
        }
    }

    /// Whether two children are paired first: elements of the same name, texts, instructions of the same target.
    private static func sameKind(_ control: XMLComparedElement.Child, _ test: XMLComparedElement.Child) -> Bool {
        switch (control, test) {
        case (.element(let expected), .element(let actual)):
            return expected.name.localName == actual.name.localName && expected.name.namespace == actual.name.namespace
        case (.text, .text): return true
        case (.processingInstruction(let target, _), .processingInstruction(let other, _)): return target == other
        default: return false
        }
    }
}
