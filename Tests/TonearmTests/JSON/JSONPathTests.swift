import Testing
import Tonearm

/// The one JSONPath implementation: what WireMock users write in `matchesJsonPath`.
@Suite("JSONPath")
struct JSONPathTests {
    private func select(_ path: String, _ json: String) throws -> [String] {
        try JSONPath(path).select(in: try JSONValue(parsingVerbatim: Array(json.utf8))).map(\.canonicalText)
    }

    @Test("names, indices, wildcards, slices and unions")
    func selectors() throws {
        let document = #"{"a":{"b":[10,20,30,40]},"c d":1}"#
        #expect(try select("$.a.b[0]", document) == ["10"])
        #expect(try select("$.a.b[-1]", document) == ["40"])
        #expect(try select("$['c d']", document) == ["1"])
        #expect(try select("$.a.b[*]", document) == ["10", "20", "30", "40"])
        #expect(try select("$.a.b[1:3]", document) == ["20", "30"])
        #expect(try select("$.a.b[::2]", document) == ["10", "30"])
        #expect(try select("$.a.b[0,2]", document) == ["10", "30"])
        #expect(try select("$.a.b[9]", document) == [])
    }

    @Test("descendants find a name at any depth")
    func descendants() throws {
        // Each level before the levels below it, as Jayway scans.
        #expect(try select("$..n", #"{"n":1,"x":{"y":[{"n":2}],"n":3}}"#) == ["1", "3", "2"])
    }

    @Test("filters: comparisons, existence, regex, logic, and on an object the object itself")
    func filters() throws {
        let items = #"{"items":[{"n":1,"s":"ab"},{"n":2},{"n":"2","s":"xAB"}]}"#
        #expect(try select("$.items[?(@.n == 2)].n", items) == ["2", "\"2\""])
        #expect(try select("$.items[?(@.s)].n", items) == ["1", "\"2\""])
        #expect(try select("$.items[?(@.s =~ /ab/i)].n", items) == ["1"])
        #expect(try select("$.items[?(!(@.n < 2) && @.s)].n", items) == ["\"2\""])
        #expect(try select("$.items[?(@.n > 1 || @.s == 'ab')].n", items) == ["1", "2", "\"2\""])
        #expect(try select("$[?(@.a > 1)].a", #"{"a":2}"#) == ["2"])
        #expect(try select("$[?(@.['id'] =~ /[0-9]{3}/)].id", #"{"id":"123"}"#) == ["\"123\""])
    }

    @Test("what cannot be parsed is an error with its offset; functions are refused")
    func errors() throws {
        #expect(throws: JSONPathError.self) { try JSONPath("a.b") }
        #expect(throws: JSONPathError.self) { try JSONPath("$.a[") }
        #expect(throws: JSONPathError.self) { try JSONPath("$.a.length()") }
        #expect(throws: JSONPathError.self) { try JSONPath("$.a[?(@.b =~ /(a+)+\\1/)]") }
        let error = try #require(throws: JSONPathError.self) { try JSONPath("$.a[?(@.b == )]") }
        #expect(error.offset == 13)
        #expect(try JSONPath("$.a[1:3]").isDefinite == false)
        #expect(try JSONPath("$.a['b'][0]").isDefinite)
    }
}
