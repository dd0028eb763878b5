import Testing

@testable import Tonearm

/// The XML reader WireMock's XML matchers read bodies with: bytes in, a tree out, no DTD ever.
@Suite("XML reader")
struct XMLReaderTests {
    private func read(_ text: String) throws(XMLSyntaxError) -> XMLDocument { try XMLReader().read(text) }

    @Test("elements, attributes, text, CDATA, comments, instructions and namespaces")
    func readsTheTree() throws {
        let document = try read(
            "<?xml version=\"1.0\"?>\n<!-- before --><p:a xmlns:p=\"urn:p\" xmlns=\"urn:d\" x='1' p:y=\"a&amp;b\"><b>t &lt; <![CDATA[<raw>]]>&#65;&#x42;</b><!--c--><?pi data?></p:a>")
        let root = document.root
        #expect(root.name == XMLName(prefix: "p", localName: "a", namespace: "urn:p"))
        #expect(root.namespaceDeclarations == [XMLNamespaceDeclaration(prefix: "p", uri: "urn:p"), XMLNamespaceDeclaration(prefix: nil, uri: "urn:d")])
        #expect(root.attributes == [
            XMLAttribute(XMLName(localName: "x"), "1"), XMLAttribute(XMLName(prefix: "p", localName: "y", namespace: "urn:p"), "a&b"),
        ])
        #expect(root.children == [
            .element(XMLElement(XMLName(localName: "b", namespace: "urn:d"), children: [.text("t < <raw>AB")])),
            .comment("c"), .processingInstruction(target: "pi", data: "data"),
        ])
    }

    @Test("line ends are read as line feeds; attribute whitespace as spaces")
    func normalisesLineEnds() throws {
        let document = try read("<a x=\"1\n2\">1\r\n2\r3</a>")
        #expect(document.root.attributes[0].value == "1 2")
        #expect(document.root.children == [.text("1\n2\n3")])
    }

    @Test("a DTD is refused: internal entities, an entity bomb, external SYSTEM entities")
    func refusesDTDs() {
        var bomb = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) \"" + String(repeating: level == 1 ? "&lol;" : "&lol\(level - 1);", count: 10) + "\">"
        }
        bomb += "]><lolz>&lol9;</lolz>"
        let documents = [
            bomb,
            "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>",
            "<!DOCTYPE a SYSTEM \"http://example.com/a.dtd\"><a/>",
            "<a><!ENTITY e \"x\"></a>",
        ]
        for text in documents {
            #expect(throws: XMLSyntaxError.self, "\(text)") { try read(text) }
        }
        do {
            _ = try read(bomb)
        } catch {
            #expect(error.line == 1 && error.column == 22)
            #expect(error.message.contains("DOCTYPE"))
        }
    }

    @Test("an entity no DTD declares is an error, never an expansion")
    func undeclaredEntity() {
        #expect(throws: XMLSyntaxError.self) { try read("<a>&e;</a>") }
        #expect(throws: XMLSyntaxError.self) { try read("<a>&#0;</a>") }
        #expect(throws: XMLSyntaxError.self) { try read("<a>&#x110000;</a>") }
    }

    @Test("malformed documents are errors with their line and column")
    func malformed() {
        let cases: [(String, Int, Int)] = [
            ("", 1, 1), ("not xml", 1, 1), ("<a>", 1, 4), ("<a></b>", 1, 4), ("<a>\n  <b x=1/></a>", 2, 8), ("<a/><b/>", 1, 5),
            ("<a x='1' x='2'/>", 1, 10), ("<a>]]></a>", 1, 6),
        ]
        for (text, line, column) in cases {
            do {
                _ = try read(text)
                Issue.record("\(text.debugDescription) was read")
            } catch {
                #expect(error.line == line && error.column == column, "\(text.debugDescription): \(error)")
            }
        }
    }

    @Test("depth and size are bounded")
    func bounds() throws {
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        #expect(throws: XMLSyntaxError.self) { try read(deep) }
        let allowed = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        _ = try read(allowed)
        #expect(throws: XMLSyntaxError.self) { try XMLReader(maximumBytes: 10).read("<a>0123456789</a>") }
    }
}
