/// An XPath 1.0 expression in the subset Tonearm evaluates (docs/server.md, "XPath"), with the
/// namespace prefixes it may use (WireMock's `xPathNamespaces`).
///
/// The subset: absolute and relative location paths, `//`, `.`, `..`, `*`, `prefix:*`, `@name`,
/// `@*`, the axes `child`, `descendant`, `descendant-or-self`, `self`, `parent`, `attribute`,
/// `ancestor`, `ancestor-or-self`, `following-sibling` and `preceding-sibling`, the node tests
/// `text()`, `node()`, `comment()` and `processing-instruction()`, predicates (a number is a
/// position), `|`, `or`, `and`, `=`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `div`, `mod`, unary
/// `-`, string and number literals, and the functions `last`, `position`, `count`, `local-name`,
/// `name`, `namespace-uri`, `string`, `concat`, `starts-with`, `contains`, `substring-before`,
/// `substring-after`, `substring`, `string-length`, `normalize-space`, `translate`, `not`, `true`,
/// `false`, `boolean`, `number`, `sum`, `floor`, `ceiling` and `round`. Anything else (variables,
/// other axes, other functions) is refused when parsed, naming the construct.
///
/// Without namespaces a name test compares the name as written (`b` selects `<b>` whatever its
/// default namespace; a prefixed test selects nothing), as WireMock 2.35.1 reads the document without
/// namespace awareness then; with them, a name test compares namespace URI and local name.
public struct XPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    /// The prefixes the expression may use, and their namespace URIs.
    public let namespaces: [String: String]
    let root: XPathSyntax

    /// Parses `text`; the error names the offset and the construct.
    public init(_ text: String, namespaces: [String: String] = [:]) throws(XPathError) {
        self.text = text
        self.namespaces = namespaces
        var parser = XPathParser(text)
        root = try parser.expression()
    }

    /// The expression as written.
    public var description: String { text }

    /// Equal when the text and namespaces are.
    public static func == (lhs: XPathExpression, rhs: XPathExpression) -> Bool {
        lhs.text == rhs.text && lhs.namespaces == rhs.namespaces
    }

    /// Hashes the text and namespaces.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(namespaces)
    }

    /// The values a nested matcher tests, one per node the expression selects in `document`: an element
    /// as ``XMLWriter/indented(_:)`` writes it, an attribute's value, a text, a comment as written. An
    /// expression whose value is not a node-set selects nothing (WireMock 2.35.1 never matches one);
    /// so does one that runs past the evaluation budget (a million node visits: a request's cost stays
    /// bounded whatever the expression and the document).
    public func selectedValues(in document: XMLDocument) -> [String] {
        selectedValues(in: document, budget: 1_000_000)
    }

    func selectedValues(in document: XMLDocument, budget: Int) -> [String] {
        let tree = XPathTree(document)
        var evaluator = XPathEvaluator(tree: tree, namespaces: namespaces.isEmpty ? nil : namespaces)
        evaluator.budget = budget
        guard case .nodes(let nodes)? = try? evaluator.evaluate(root, XPathEvaluator.Context(node: 0, position: 1, size: 1)) else {
            return []
        }
        return nodes.map { tree.matchText($0, namespaceAware: !namespaces.isEmpty) }
    }
}

/// Why an XPath expression was refused: its offset and what was wrong or is outside the subset.
public struct XPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset, in characters, of the problem.
    public let offset: Int
    /// What was expected, or the construct Tonearm does not evaluate.
    public let message: String

    /// `XPath, at offset N: message`.
    public var description: String { "XPath, at offset \(offset): \(message)" }
}

indirect enum XPathSyntax: Sendable {
    case number(Double)
    case literal(String)
    case path(absolute: Bool, steps: [XPathStep])
    case filter(XPathSyntax, predicates: [XPathSyntax], steps: [XPathStep])
    case union(XPathSyntax, XPathSyntax)
    case binary(String, XPathSyntax, XPathSyntax)
    case negate(XPathSyntax)
    case function(String, [XPathSyntax])
}

struct XPathStep: Sendable {
    enum Axis: String, Sendable {
        case child, descendant, descendantOrSelf = "descendant-or-self", `self`, parent, attribute, ancestor
        case ancestorOrSelf = "ancestor-or-self", followingSibling = "following-sibling", precedingSibling = "preceding-sibling"

        var isReverse: Bool { self == .ancestor || self == .ancestorOrSelf || self == .precedingSibling || self == .parent }
    }

    enum Test: Sendable {
        case name(prefix: String?, local: String)
        case anyName
        case anyInNamespace(String)
        case text, node, comment, processingInstruction
    }

    var axis: Axis
    var test: Test
    var predicates: [XPathSyntax]

    static let descendantOrSelfNode = XPathStep(axis: .descendantOrSelf, test: .node, predicates: [])
}
