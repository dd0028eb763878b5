import Testing
import Tonearm

/// `equalToJson` semantics: numbers as WireMock (Jackson's BigDecimal) compares them, and the two
/// leniency options.
@Suite("JSON comparison")
struct JSONComparisonTests {
    private func equal(_ expected: String, _ actual: String, _ comparison: JSONComparison = JSONComparison()) throws -> Bool {
        comparison.matches(try JSONValue(parsingVerbatim: Array(actual.utf8)), expected: try JSONValue(parsingVerbatim: Array(expected.utf8)))
    }

    @Test("numbers compare by value and scale: 1 equals 1.0 but 10 does not equal 10.0")
    func numbers() throws {
        #expect(try equal("1", "1.0"))
        #expect(try equal("1", "1e0"))
        #expect(try equal("0.1", "0.10"))
        #expect(try equal("0.1", "1e-1"))
        #expect(try equal("10.0", "1e1"))
        #expect(try equal("0", "-0.0"))
        #expect(try !equal("10", "10.0"))
        #expect(try !equal("10", "1e1"))
        #expect(try !equal("1", "\"1\""))
    }

    @Test("objects ignore member order; extra members only with ignoresExtraElements")
    func objects() throws {
        #expect(try equal(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#))
        #expect(try !equal(#"{"a":1}"#, #"{"a":1,"b":2}"#))
        #expect(try equal(#"{"a":1}"#, #"{"a":1,"b":2}"#, JSONComparison(ignoresExtraElements: true)))
        #expect(try !equal(#"{"a":null}"#, "{}", JSONComparison(ignoresExtraElements: true)))
    }

    @Test("arrays: order, multiplicity and extra elements")
    func arrays() throws {
        let unordered = JSONComparison(ignoresArrayOrder: true)
        #expect(try equal("[1,2]", "[2,1]", unordered))
        #expect(try !equal("[1,1,2]", "[1,2,2]", unordered))
        #expect(try equal("[1,2]", "[1,2,3]", JSONComparison(ignoresExtraElements: true)))
        #expect(try !equal("[1,2]", "[0,1,2]", JSONComparison(ignoresExtraElements: true)))
        #expect(try equal("[1,2]", "[3,2,1]", JSONComparison(ignoresArrayOrder: true, ignoresExtraElements: true)))
        // A first-fit pairing would give {"x":1} to the first element and leave {"x":1,"y":2} unpaired.
        #expect(try equal(#"[{"x":1},{"x":1,"y":2}]"#, #"[{"x":1,"y":2},{"x":1}]"#, JSONComparison(ignoresArrayOrder: true, ignoresExtraElements: true)))
    }

    @Test("json-unit placeholders accept any value of their type")
    func placeholders() throws {
        #expect(try equal(#"{"s":"${json-unit.any-string}","n":"${json-unit.any-number}"}"#, #"{"s":"x","n":2.5}"#))
        #expect(try !equal(#"{"s":"${json-unit.any-string}"}"#, #"{"s":1}"#))
    }
}
