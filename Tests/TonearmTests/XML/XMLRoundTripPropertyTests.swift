import PropertyBased
import Testing

@testable import Tonearm

@Suite("XML round trip (property)")
struct XMLRoundTripPropertyTests {
    private static let names = ["a", "b", "item", "x-y", "n.1", "_u", "é"]
    private static let texts = ["t", "a < b", "x & y", "\"q\" 'a'", "]]", "tab\there", "line\nfeed", "é ü 😀", "  spaced  "]

    static func element(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> XMLElement {
        var attributes: [XMLAttribute] = []
        var used = Set<String>()
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let name = names.randomElement(using: &rng) ?? "a"
            guard used.insert(name).inserted else { continue }
            attributes.append(XMLAttribute(XMLName(localName: name), texts.randomElement(using: &rng) ?? ""))
        }
        var children: [XMLNode] = []
        if depth > 0 {
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                switch Int.random(in: 0...4, using: &rng) {
                case 0, 1: children.append(.element(element(depth: depth - 1, using: &rng)))
                case 2:
                    // Adjacent texts read back as one.
                    if case .text? = children.last { continue }
                    children.append(.text(texts.randomElement(using: &rng) ?? "t"))
                case 3: children.append(.comment(" note "))
                default: children.append(.processingInstruction(target: "pi", data: "some data"))
                }
            }
        }
        return XMLElement(XMLName(localName: names.randomElement(using: &rng) ?? "a"), attributes: attributes, children: children)
    }

    static let documents = Generator<XMLDocument, Shrink.None<XMLDocument>>(run: { rng in
        XMLDocument(root: element(depth: 4, using: &rng))
    })

    @Test("reading the serialisation of a random tree gives the tree back")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Self.documents) { document in
            let text = XMLWriter.compact(document)
            #expect((try? XMLReader().read(text)) == document, "\(text)")
        }
    }

    @Test("a tree equals itself under equalToXml's comparison, and its XPath // selects every element")
    func selfComparison() async throws {
        let everything = try XPathExpression("//*")
        await propertyCheck(count: 200, input: Self.documents) { document in
            let expectation = try XMLExpectation(document, XMLComparison()) { pattern throws(RuleError) in
                throw RuleError(ruleIndex: 0, ruleName: "xml", pattern: pattern, message: "no patterns")
            }
            #expect(expectation.matches(document))
            #expect(everything.selectedValues(in: document).count == Self.count(document.root))
        }
    }

    private static func count(_ element: XMLElement) -> Int {
        1 + element.children.reduce(0) { total, child in
            if case .element(let nested) = child { return total + count(nested) }
            return total
        }
    }
}
