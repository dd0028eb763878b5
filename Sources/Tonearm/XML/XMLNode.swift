/// A name in an XML document as read: its prefix as written, its local part and the namespace the
/// prefix (or the default namespace) is bound to where it appears.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The prefix as written (`soap` of `soap:Envelope`), `nil` without one.
    public var prefix: String?
    /// The part after the colon, or the whole name.
    public var localName: String
    /// The namespace URI in scope for the prefix (or, for an element without one, the default
    /// namespace); `nil` when none is, or the prefix is not declared.
    public var namespace: String?

    /// Creates a name.
    public init(prefix: String? = nil, localName: String, namespace: String? = nil) {
        self.prefix = prefix
        self.localName = localName
        self.namespace = namespace
    }

    /// The name as written: `prefix:localName` or `localName`.
    public var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    /// The qualified name.
    public var description: String { qualifiedName }
}

/// An attribute of an element (namespace declarations are kept apart, in
/// ``XMLElement/namespaceDeclarations``).
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name; an attribute without a prefix is in no namespace.
    public var name: XMLName
    /// Its value, entities replaced and whitespace characters read as spaces (XML's attribute-value
    /// normalisation).
    public var value: String

    /// Creates an attribute.
    public init(_ name: XMLName, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A namespace declaration written on an element: `xmlns="uri"` (prefix `nil`) or `xmlns:p="uri"`.
public struct XMLNamespaceDeclaration: Sendable, Hashable {
    /// The prefix declared, `nil` for the default namespace.
    public var prefix: String?
    /// The namespace URI.
    public var uri: String

    /// Creates a declaration.
    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}

/// An element: its name, attributes in document order, the namespaces it declares, and its children.
public struct XMLElement: Sendable, Hashable {
    /// The element's name.
    public var name: XMLName
    /// Its attributes in the order written.
    public var attributes: [XMLAttribute]
    /// The namespaces declared on it, in the order written.
    public var namespaceDeclarations: [XMLNamespaceDeclaration]
    /// Its children in document order; adjacent text (CDATA sections included) is one text node.
    public var children: [XMLNode]

    /// Creates an element.
    public init(
        _ name: XMLName, attributes: [XMLAttribute] = [], namespaceDeclarations: [XMLNamespaceDeclaration] = [],
        children: [XMLNode] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.namespaceDeclarations = namespaceDeclarations
        self.children = children
    }

    /// The text of the element and its descendants, in document order (XPath's string-value).
    public var textContent: String {
        var text = ""
        appendText(to: &text)
        return text
    }

    private func appendText(to text: inout String) {
        for child in children {
            switch child {
            case .text(let part): text += part
            case .element(let element): element.appendText(to: &text)
            case .comment, .processingInstruction: break
            }
        }
    }
}

/// A node in an element's content.
public indirect enum XMLNode: Sendable, Hashable {
    /// A child element.
    case element(XMLElement)
    /// Character data: text and CDATA sections, entities replaced, line ends read as line feeds.
    case text(String)
    /// A comment's text.
    case comment(String)
    /// A processing instruction (`<?target data?>`).
    case processingInstruction(target: String, data: String)
}

/// A well-formed XML document without a DTD, as ``XMLReader`` reads it: its root element (comments
/// and processing instructions around the root are not kept).
public struct XMLDocument: Sendable, Hashable {
    /// The document element.
    public var root: XMLElement

    /// Creates a document.
    public init(root: XMLElement) {
        self.root = root
    }
}
