import Testing

@testable import Tonearm

/// `equalToXml` as WireMock 2.35.1's XMLUnit setup compares (each also a case of scripts/wiremock-diff.py).
@Suite("XML comparison")
struct XMLComparisonTests {
    private func matches(_ expected: String, _ actual: String, _ comparison: XMLComparison = XMLComparison()) throws -> Bool {
        let condition = TextCondition.equalsXML(try XMLReader().read(expected), comparison)
        let compiled = try CompiledTextCondition(condition) { pattern throws(RuleError) in
            do { return try LinearPattern(pattern) } catch { throw RuleError(ruleIndex: 0, ruleName: "xml", pattern: pattern, message: "\(error)") }
        }
        return compiled.holds(forBody: Array(actual.utf8))
    }

    @Test("whitespace, comments, attribute order, CDATA and differently named siblings do not matter")
    func leniencies() throws {
        let expected = "<a><b>1</b><c x=\"1\" y=\"2\"/></a>"
        for actual in [
            "<a>\n  <b>1</b>\n  <c y=\"2\" x=\"1\"/>\n</a>", "<a><c x=\"1\" y=\"2\"/><b>1</b></a>", "<a><!--n--><b><![CDATA[1]]></b><c x=\"1\" y=\"2\"></c></a>",
            "<a><b> 1 </b><c x=\" 1\" y=\"2\"/></a>",
        ] {
            #expect(try matches(expected, actual), "\(actual)")
        }
        for actual in ["<a><b>2</b><c x=\"1\" y=\"2\"/></a>", "<a><b>1</b><c x=\"1\"/></a>", "<a><b>1</b><c x=\"1\" y=\"2\"/><d/></a>", "x", ""] {
            #expect(try !matches(expected, actual), "\(actual)")
        }
        #expect(try !matches("<a><b>1</b><b>2</b></a>", "<a><b>2</b><b>1</b></a>"))
        #expect(try !matches("<a><b>x y</b></a>", "<a><b>x  y</b></a>"))
    }

    @Test("namespaces: URIs and local names count, prefixes do not")
    func namespaces() throws {
        #expect(try matches("<a xmlns=\"urn:x\"><b>1</b></a>", "<p:a xmlns:p=\"urn:x\"><p:b>1</p:b></p:a>"))
        #expect(try !matches("<a xmlns=\"urn:x\"/>", "<a xmlns=\"urn:y\"/>"))
        #expect(try !matches("<a xmlns=\"urn:x\"/>", "<a/>"))
    }

    @Test("placeholders: ignore, isNumber, matchesRegex, custom delimiters; off by default")
    func placeholders() throws {
        let on = XMLComparison(placeholders: XMLPlaceholderDelimiters())
        let expected = "<a><b>${xmlunit.ignore}</b><c>${xmlunit.isNumber}</c><d>${xmlunit.matchesRegex(^[a-z]+$)}</d></a>"
        #expect(try matches(expected, "<a><b>anything</b><c>1.5e3</c><d>abc</d></a>", on))
        #expect(try matches(expected, "<a><b/><c>12</c><d>abc</d></a>", on))
        #expect(try !matches(expected, "<a><b/><c>twelve</c><d>abc</d></a>", on))
        #expect(try !matches(expected, "<a><b/><c>12</c><d>ABC</d></a>", on))
        #expect(try !matches(expected, "<a><b>anything</b><c>1</c><d>abc</d></a>"))
        let brackets = XMLComparison(placeholders: XMLPlaceholderDelimiters(opening: "\\[\\[", closing: "]]"))
        #expect(try matches("<a>[[xmlunit.ignore]]</a>", "<a>z</a>", brackets))
        #expect(try !matches("<a>${xmlunit.ignore}</a>", "<a>z</a>", brackets))
    }

    @Test("exempted comparisons stop counting their kind of difference")
    func exemptions() throws {
        #expect(try matches("<a><b>1</b></a>", "<x><c>1</c></x>", XMLComparison(exemptedComparisons: ["ELEMENT_TAG_NAME"])))
        #expect(try matches("<a x=\"1\"/>", "<a x=\"2\"/>", XMLComparison(exemptedComparisons: ["ATTR_VALUE"])))
        #expect(try matches("<a><b>1</b></a>", "<a><b>1</b><c/></a>", XMLComparison(exemptedComparisons: ["CHILD_NODELIST_LENGTH"])))
        #expect(try !matches("<a><b>1</b></a>", "<a/>", XMLComparison(exemptedComparisons: ["CHILD_NODELIST_LENGTH"])))
    }

    @Test("a body with a DTD never matches, whatever it would expand to")
    func dtdBodies() throws {
        #expect(try !matches("<a>zz</a>", "<!DOCTYPE a [<!ENTITY e \"zz\">]><a>&e;</a>"))
        #expect(try !matches("<a/>", "<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>"))
    }
}
