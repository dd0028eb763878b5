import Testing

@testable import Tonearm

/// The XPath 1.0 subset `matchesXPath` evaluates.
@Suite("XPath")
struct XPathTests {
    private func select(_ expression: String, _ xml: String, namespaces: [String: String] = [:]) throws -> [String] {
        try XPathExpression(expression, namespaces: namespaces).selectedValues(in: try XMLReader().read(xml))
    }

    private let shop = "<shop><item id=\"1\"><name>pen</name><price>2</price></item><item id=\"2\"><name>ink</name><price>5</price></item></shop>"

    @Test("location paths: absolute, relative, //, *, @, text(), . and ..")
    func paths() throws {
        #expect(try select("/shop/item/name/text()", shop) == ["pen", "ink"])
        #expect(try select("shop/item/@id", shop) == ["1", "2"])
        #expect(try select("//name/text()", shop) == ["pen", "ink"])
        #expect(try select("/shop/*/@*", shop) == ["1", "2"])
        #expect(try select("//price/../@id", shop) == ["1", "2"])
        #expect(try select("//item/./name/text()", shop) == ["pen", "ink"])
        #expect(try select("//name", shop) == ["<name>pen</name>\n", "<name>ink</name>\n"])
        #expect(try select("/", "<a>k</a>") == ["<a>k</a>\n"])
    }

    @Test("predicates: positions, attribute and child values, comparisons, and/or, functions")
    func predicates() throws {
        #expect(try select("//item[2]/@id", shop) == ["2"])
        #expect(try select("//item[last()]/@id", shop) == ["2"])
        #expect(try select("//item[@id='1']/name/text()", shop) == ["pen"])
        #expect(try select("//item[name='ink']/@id", shop) == ["2"])
        #expect(try select("//item[price > 3]/@id", shop) == ["2"])
        #expect(try select("//item[price >= 2 and price < 5]/@id", shop) == ["1"])
        #expect(try select("//item[name='pen' or name='ink']/@id", shop) == ["1", "2"])
        #expect(try select("/shop[count(item) = 2]/@*", "<shop a=\"y\"><item/><item/></shop>") == ["y"])
        #expect(try select("//*[local-name()='item'][position() = 1]/@id", shop) == ["1"])
        #expect(try select("//item[contains(name, 'n') and not(starts-with(name, 'p'))]/@id", shop) == ["2"])
        #expect(try select("//item[price * 2 = 10]/@id", shop) == ["2"])
        #expect(try select("//item[string-length(normalize-space(name)) = 3][1]/@id", shop) == ["1"])
        #expect(try select("//item[sum(../item/price) = 7][1]/@id", shop) == ["1"])
        #expect(try select("(//item)[2]/@id", shop) == ["2"])
        #expect(try select("//item[@id='1'] | //item[@id='2']", shop).count == 2)
    }

    @Test("namespaces: prefixes bound by xPathNamespaces compare URIs; without them names compare as written")
    func namespaces() throws {
        let document = "<a xmlns=\"urn:x\" xmlns:q=\"urn:q\"><b>1</b><q:c>2</q:c></a>"
        #expect(try select("//p:b/text()", document, namespaces: ["p": "urn:x"]) == ["1"])
        #expect(try select("//z:c/text()", document, namespaces: ["z": "urn:q"]) == ["2"])
        #expect(try select("//b", document, namespaces: ["p": "urn:x"]) == [])
        #expect(try select("//b/text()", document) == ["1"])
        #expect(try select("//q:c", document) == [])
        #expect(try select("//*[local-name()='c']/text()", document) == ["2"])
        #expect(try select("//p:*", document, namespaces: ["p": "urn:q"]).count == 1)
        // A selected element declares the namespace it inherited (read with namespaces), as Java writes it.
        #expect(try select("//p:b", document, namespaces: ["p": "urn:x"]) == ["<b xmlns=\"urn:x\">1</b>\n"])
        #expect(try select("//b", document) == ["<b>1</b>\n"])
    }

    @Test("a string, number or boolean expression selects nothing (WireMock 2.35.1 never matches one)")
    func nonNodeSets() throws {
        #expect(try select("count(//item)", shop) == [])
        #expect(try select("count(//item) = 2", shop) == [])
        #expect(try select("string(//name)", shop) == [])
        #expect(try select("'x'", shop) == [])
    }

    @Test("constructs outside the subset are refused when parsed, naming the construct")
    func refusals() {
        let cases = [
            ("//b[following::c]", "following axis"), ("//b[lang('en')]", "function lang()"), ("$x", "variables"),
            ("/a/b[", "expected"), ("//namespace::*", "namespace axis"), ("count()", "count() takes 1"),
        ]
        for (text, phrase) in cases {
            do {
                _ = try XPathExpression(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.message.contains(phrase), "\(text): \(error)")
            }
        }
    }

    @Test("expressions are bounded in size, and repeated minus signs cost no stack")
    func sizeBounds() throws {
        #expect(throws: XPathError.self) { try XPathExpression(Array(repeating: "1", count: 600).joined(separator: "+")) }
        #expect(try select("//item[price = " + String(repeating: "-", count: 500) + "2]/@id", shop) == ["1"])
        #expect(try select("//item[price = -" + String(repeating: "-", count: 500) + "2]/@id", shop) == [])
    }

    @Test("evaluation is bounded: a path that would visit too many nodes selects nothing")
    func budget() throws {
        let wide = try XMLReader().read("<a>" + String(repeating: "<b><c/><c/><c/></b>", count: 200) + "</a>")
        let quadratic = try XPathExpression("//*[count(//*) > 1]")
        #expect(try XPathExpression("//b").selectedValues(in: wide, budget: 10_000).count == 200)
        #expect(quadratic.selectedValues(in: wide, budget: 10_000) == [])
        #expect(quadratic.selectedValues(in: wide, budget: 10_000_000).count == 801)
    }
}
