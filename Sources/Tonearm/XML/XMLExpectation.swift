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
