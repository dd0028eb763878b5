/// A document flattened for XPath: every node (the root, elements, attributes, texts, comments,
/// instructions) in document order, so document order is an index.
struct XPathTree {
    enum Kind { case root, element, attribute, text, comment, processingInstruction }

    struct Node {
        var kind: Kind
        var parent: Int
        var name: XMLName?
        /// A text's, attribute's, comment's or instruction's own text.
        var value: String
        var children: [Int] = []
        var attributes: [Int] = []
        var element: XMLElement?
    }

    private(set) var nodes: [Node] = []

    init(_ document: XMLDocument) {
        nodes.append(Node(kind: .root, parent: -1, name: nil, value: ""))
        let root = add(document.root, parent: 0)
        nodes[0].children = [root]
    }

    private mutating func add(_ element: XMLElement, parent: Int) -> Int {
        let index = nodes.count
        nodes.append(Node(kind: .element, parent: parent, name: element.name, value: "", element: element))
        var attributes: [Int] = []
        for attribute in element.attributes {
            attributes.append(nodes.count)
            nodes.append(Node(kind: .attribute, parent: index, name: attribute.name, value: attribute.value))
        }
        var children: [Int] = []
        for child in element.children {
            switch child {
            case .element(let nested): children.append(add(nested, parent: index))
            case .text(let text):
                children.append(nodes.count)
                nodes.append(Node(kind: .text, parent: index, name: nil, value: text))
            case .comment(let text):
                children.append(nodes.count)
                nodes.append(Node(kind: .comment, parent: index, name: nil, value: text))
            case .processingInstruction(let target, let data):
                children.append(nodes.count)
                nodes.append(Node(kind: .processingInstruction, parent: index, name: XMLName(localName: target), value: data))
            }
        }
        nodes[index].attributes = attributes
        nodes[index].children = children
        return index
    }

    /// XPath's string-value of a node.
    func stringValue(_ index: Int) -> String {
        let node = nodes[index]
        switch node.kind {
        case .root: return node.children.first.map(stringValue) ?? ""
        case .element: return node.element?.textContent ?? ""
        default: return node.value
        }
    }

    /// What a nested matcher tests for a selected node (see ``XPathExpression/selectedValues(in:)``).
    /// Read with namespaces, an element declares the namespaces of its name and attributes that an
    /// ancestor declared, as Java's serializer adds them.
    func matchText(_ index: Int, namespaceAware: Bool) -> String {
        let node = nodes[index]
        switch node.kind {
        case .root: return node.children.first.map { matchText($0, namespaceAware: namespaceAware) } ?? ""
        case .element:
            guard var element = node.element else { return "" }
            if namespaceAware { element.declareInheritedNamespaces() }
            return XMLWriter.indented(element)
        case .comment: return "<!--\(node.value)-->"
        default: return node.value
        }
    }
}

extension XMLElement {
    /// Adds a declaration for each namespace its name and attributes use that it does not declare itself.
    fileprivate mutating func declareInheritedNamespaces() {
        var needed: [(prefix: String?, uri: String)] = []
        if let uri = name.namespace { needed.append((name.prefix, uri)) }
        for attribute in attributes {
            if let prefix = attribute.name.prefix, let uri = attribute.name.namespace, prefix != "xml" { needed.append((prefix, uri)) }
        }
        for (prefix, uri) in needed where !namespaceDeclarations.contains(where: { $0.prefix == prefix }) {
            namespaceDeclarations.append(XMLNamespaceDeclaration(prefix: prefix, uri: uri))
        }
    }
}
