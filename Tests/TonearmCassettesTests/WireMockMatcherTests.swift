import Testing
import Tonearm
@testable import TonearmCassettes

/// WireMock's value and body matchers, as the importer reads them and the engine applies them. The
/// expectations are what WireMock 2.35.1 answers (scripts/wiremock-diff.py runs the same cases against
/// the jar).
@Suite("WireMock matchers")
struct WireMockMatcherTests {
    /// Whether a mapping whose `request` is `requestJSON` answers each request, in order.
    private func answers(_ requestJSON: String, _ requests: [Request]) throws -> [Bool] {
        let json = #"{"request": \#(requestJSON), "response": {"status": 200}}"#
        let imported = try WireMockFormat.decode(Array(json.utf8), file: "inline.json")
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
        let engine = try imported.makeEngine(strategy: .repeat)
        return requests.map { engine.match($0).hit != nil }
    }

    private func get(_ url: String, _ headers: [(String, String)] = []) -> Request {
        Request(method: "GET", url: url, headers: headers.map { HeaderField($0.0, $0.1) })
    }

    private func post(_ body: String) -> Request {
        Request(method: "POST", url: "/b", body: Array(body.utf8))
    }

    @Test("doesNotMatch holds for a missing header and for any value that does not match")
    func headerDoesNotMatch() throws {
        let mapping = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"doesNotMatch": "a[0-9]+"}}}"#
        #expect(try answers(mapping, [get("/h"), get("/h", [("X-Thing", "a12")]), get("/h", [("X-Thing", "zz")])]) == [true, false, true])
    }

    @Test("equalTo with caseInsensitive, contains, and/or of matchers")
    func combinedHeaderMatchers() throws {
        let insensitive = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"equalTo": "abc", "caseInsensitive": true}}}"#
        #expect(try answers(insensitive, [get("/h", [("X-Thing", "ABC")]), get("/h", [("X-Thing", "abd")]), get("/h")]) == [true, false, false])
        let anyOf = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"or": [{"equalTo": "a"}, {"contains": "zz"}]}}}"#
        #expect(try answers(anyOf, [get("/h", [("X-Thing", "a")]), get("/h", [("X-Thing", "xzzx")]), get("/h", [("X-Thing", "b")]), get("/h")]) == [true, true, false, false])
        let allOf = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"and": [{"doesNotMatch": "a"}, {"doesNotMatch": "b"}]}}}"#
        #expect(try answers(allOf, [get("/h"), get("/h", [("X-Thing", "a")]), get("/h", [("X-Thing", "c")])]) == [true, false, true])
    }

    @Test("query matchers read decoded values and hold when any repeated value does")
    func queryMatchers() throws {
        let mapping = #"{"method": "GET", "urlPath": "/q", "queryParameters": {"c": {"doesNotMatch": "r.d"}}}"#
        #expect(try answers(mapping, [get("/q"), get("/q?c=red"), get("/q?c=red&c=blue")]) == [true, false, true])
    }

    @Test("cookies come from every Cookie header, unquoted; a missing cookie satisfies only absent")
    func cookies() throws {
        let equal = #"{"method": "GET", "url": "/c", "cookies": {"session": {"equalTo": "s1"}}}"#
        #expect(try answers(equal, [
            get("/c", [("Cookie", "a=1; session=s1")]), get("/c", [("Cookie", #"session="s1""#)]),
            get("/c", [("Cookie", "a=1"), ("Cookie", "session=s1")]), get("/c", [("Cookie", "session=s2")]), get("/c"),
        ]) == [true, true, true, false, false])
        let notMatching = #"{"method": "GET", "url": "/c", "cookies": {"session": {"doesNotMatch": "x"}}}"#
        #expect(try answers(notMatching, [get("/c"), get("/c", [("Cookie", "session=y")])]) == [false, true])
    }

    @Test("basicAuthCredentials: the Authorization header, compared ignoring case as WireMock does")
    func basicAuth() throws {
        let mapping = #"{"method": "GET", "url": "/a", "basicAuthCredentials": {"username": "u", "password": "p"}}"#
        #expect(try answers(mapping, [
            get("/a", [("Authorization", "Basic dTpw")]), get("/a", [("Authorization", "basic dTpw")]),
            get("/a", [("Authorization", "Basic dTpx")]), get("/a", [("Authorization", "Bearer dTpw")]), get("/a"),
        ]) == [true, true, false, false, false])
        // `basicAuth` is read the same way, as the 2.35.1 jar reads it (folders in the wild use it).
        let aliased = #"{"method": "GET", "url": "/a", "basicAuth": {"username": "u", "password": "p"}}"#
        #expect(try answers(aliased, [get("/a", [("Authorization", "Basic dTpw")]), get("/a")]) == [true, false])
    }

    @Test("a multipart pattern's name is read and not matched on, as WireMock 2.35.1 does; the Content-Disposition matcher beside it matches")
    func multipartName() throws {
        func upload(_ part: String, _ body: String) -> Request {
            Request(
                method: "POST", url: "/u", headers: [HeaderField("Content-Type", "multipart/form-data; boundary=zz")],
                body: Array("--zz\r\nContent-Disposition: form-data; name=\"\(part)\"\r\n\r\n\(body)\r\n--zz--\r\n".utf8))
        }
        let nameOnly = #"{"method": "POST", "url": "/u", "multipartPatterns": [{"name": "file", "bodyPatterns": [{"contains": "hello"}]}]}"#
        #expect(try answers(nameOnly, [upload("other", "hello"), upload("file", "bye")]) == [true, false])
        let javaDSL = #"{"method": "POST", "url": "/u", "multipartPatterns": [{"name": "file", "headers": {"Content-Disposition": {"contains": "name=\"file\""}}}]}"#
        #expect(try answers(javaDSL, [upload("file", "x"), upload("other", "x")]) == [true, false])
        let notText = #"{"request": {"method": "POST", "url": "/u", "multipartPatterns": [{"name": 5}]}, "response": {}}"#
        #expect(throws: CassetteError.self) { try WireMockFormat.decode(Array(notText.utf8), file: "inline.json") }
    }

    @Test("doesNotContain: holds for a missing value and for any value without the text (header, query, body, and beside other matchers)")
    func doesNotContain() throws {
        let header = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"doesNotContain": "z"}}}"#
        #expect(try answers(header, [get("/h"), get("/h", [("X-Thing", "abc")]), get("/h", [("X-Thing", "xyz")])]) == [true, true, false])
        let query = #"{"method": "GET", "urlPath": "/q", "queryParameters": {"q": {"doesNotContain": "x"}}}"#
        #expect(try answers(query, [get("/q"), get("/q?q=abc"), get("/q?q=xyz")]) == [true, true, false])
        let body = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"doesNotContain": "secret"}]}"#
        #expect(try answers(body, [post("hello"), post("a secret"), post("")]) == [true, false, true])
        let combined = #"{"method": "GET", "url": "/h", "headers": {"X-Thing": {"and": [{"contains": "a"}, {"doesNotContain": "b"}]}}}"#
        #expect(try answers(combined, [get("/h", [("X-Thing", "aa")]), get("/h", [("X-Thing", "ab")]), get("/h")]) == [true, false, false])
        #expect(throws: CassetteError.self) {
            _ = try WireMockFormat.decode(Array(#"{"request": {"url": "/h", "headers": {"X": {"doesNotContain": 12}}}, "response": {}}"#.utf8), file: "n.json")
        }
    }

    @Test("whole-body matchers: an empty body is absent, patterns must all hold, regexes span lines")
    func bodyMatchers() throws {
        #expect(try answers(#"{"method": "POST", "url": "/b", "bodyPatterns": [{"absent": true}]}"#, [post(""), post("x")]) == [true, false])
        #expect(try answers(#"{"method": "POST", "url": "/b", "bodyPatterns": [{"equalTo": ""}, {"contains": ""}]}"#, [post("")]) == [false])
        #expect(try answers(#"{"method": "POST", "url": "/b", "bodyPatterns": [{"contains": "a"}, {"contains": "b"}]}"#, [post("ab"), post("a")]) == [true, false])
        #expect(try answers(#"{"method": "POST", "url": "/b", "bodyPatterns": [{"matches": "h.*o"}]}"#, [post("hel\nlo"), post("xhello"), post("hello\n")]) == [true, false, false])
        #expect(try answers(#"{"method": "POST", "url": "/b", "bodyPatterns": [{"doesNotMatch": "h.*o"}]}"#, [post(""), post("hello")]) == [true, false])
        let binary = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"binaryEqualTo": "/wA="}]}"#
        let engineAnswers = try answers(binary, [Request(method: "POST", url: "/b", body: [0xFF, 0x00]), Request(method: "POST", url: "/b", body: [0xFF, 0x01])])
        #expect(engineAnswers == [true, false])
    }

    @Test("equalToJson with ignoreArrayOrder and ignoreExtraElements, as recorded mapping folders use them")
    func equalToJSONOptions() throws {
        let order = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"equalToJson": {"a": [1, 1, 2]}, "ignoreArrayOrder": true}]}"#
        #expect(try answers(order, [post(#"{"a":[2,1,1]}"#), post(#"{"a":[1,2,2]}"#)]) == [true, false])
        let extra = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"equalToJson": "{\"a\": [{\"x\": 1}]}", "ignoreExtraElements": true}]}"#
        #expect(try answers(extra, [post(#"{"a":[{"x":1,"y":2},{"x":3}],"z":1}"#), post(#"{"a":[{"y":2}]}"#)]) == [true, false])
        let both = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"equalToJson": {"a": [1, 2]}, "ignoreArrayOrder": true, "ignoreExtraElements": true}]}"#
        #expect(try answers(both, [post(#"{"a":[3,2,1]}"#), post(#"{"a":[2]}"#)]) == [true, false])
    }

    @Test("matchesJsonPath: full JSONPath, and a nested matcher tested on each value selected")
    func jsonPath() throws {
        let filter = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": "$.items[?(@.n == 2)]"}]}"#
        #expect(try answers(filter, [post(#"{"items":[{"n":1},{"n":2}]}"#), post(#"{"items":[{"n":1}]}"#), post("not json")]) == [true, false, false])
        let exists = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": "$.a"}]}"#
        #expect(try answers(exists, [post(#"{"a":""}"#), post(#"{"a":null}"#), post(#"{"a":[]}"#), post(#"{"a":{}}"#)]) == [true, false, false, false])
        let descendants = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": {"expression": "$..n", "equalTo": "2"}}]}"#
        #expect(try answers(descendants, [post(#"{"a":[{"n":1},{"b":{"n":2}}]}"#), post(#"{"a":[{"n":3}]}"#)]) == [true, false])
        // Numbers are tested by the text Java gives them: 1.0 is "1.0", not "1".
        let number = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "equalTo": "1"}}]}"#
        #expect(try answers(number, [post(#"{"a":1}"#), post(#"{"a":1.0}"#), post(#"{"a":"1"}"#)]) == [true, false, true])
        let large = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "equalTo": "1.0E7"}}]}"#
        #expect(try answers(large, [post(#"{"a":10000000.0}"#), post(#"{"a":10000000}"#)]) == [true, false])
        let absent = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "absent": true}}]}"#
        #expect(try answers(absent, [post(#"{"b":1}"#), post(#"{"a":1}"#)]) == [true, false])
        let notMatching = #"{"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "doesNotMatch": "x"}}]}"#
        #expect(try answers(notMatching, [post(#"{"b":1}"#), post(#"{"a":"y"}"#)]) == [false, true])
    }

    @Test("a JSONPath that does not parse is an error naming its place")
    func badJSONPath() throws {
        let json = #"{"request": {"method": "POST", "url": "/b", "bodyPatterns": [{"matchesJsonPath": "$.a["}]}, "response": {}}"#
        let error = try #require(throws: CassetteError.self) { try WireMockFormat.decode(Array(json.utf8), file: "inline.json") }
        #expect(error.path == "$.request.bodyPatterns[0].matchesJsonPath")
    }

    @Test("date matchers: ISO 8601, dates alone and RFC 1123, against an instant or now")
    func dates() throws {
        let instant = #"{"method": "GET", "url": "/d", "headers": {"X-Date": {"equalToDateTime": "2021-06-14T12:13:14Z"}}}"#
        #expect(try answers(instant, [
            get("/d", [("X-Date", "2021-06-14T14:13:14+02:00")]), get("/d", [("X-Date", "Mon, 14 Jun 2021 12:13:14 GMT")]),
            get("/d", [("X-Date", "2021-06-14T12:13:14.000Z")]), get("/d", [("X-Date", "2021-06-14T12:13:15Z")]),
            get("/d", [("X-Date", "garbage")]), get("/d"),
        ]) == [true, true, true, false, false, false])
        // Against a date without zone the local date-time counts, its offset ignored, as in WireMock.
        let local = #"{"method": "GET", "url": "/d", "headers": {"X-Date": {"before": "2021-06-14"}}}"#
        #expect(try answers(local, [
            get("/d", [("X-Date", "2021-06-13T23:50:00-01:00")]), get("/d", [("X-Date", "2021-06-14T00:10:00+01:00")]),
        ]) == [true, false])
        let recent = #"{"method": "GET", "url": "/d", "headers": {"X-Date": {"after": "now -3 days"}}}"#
        #expect(try answers(recent, [get("/d", [("X-Date", "2000-01-01T00:00:00Z")]), get("/d", [("X-Date", "2999-01-01T00:00:00Z")])]) == [false, true])
    }

    @Test("formParameters (WireMock 3) read a form body's decoded parameters, hasExactly and includes too; another Content-Type has none")
    func formParameters() throws {
        func form(_ body: String, _ type: String = "application/x-www-form-urlencoded; charset=UTF-8") -> Request {
            Request(method: "POST", url: "/f", headers: [HeaderField("Content-Type", type)], body: Array(body.utf8))
        }
        let single = #"{"method": "POST", "urlPath": "/f", "formParameters": {"key one": {"equalTo": "one two ?"}, "gone": {"absent": true}}}"#
        #expect(try answers(single, [form("key+one=one%20two+%3F"), form("key+one=one+two+%3F&gone=1"), form("key+one=one two ?", "text/plain")]) == [true, false, false])
        let multi = #"{"method": "POST", "urlPath": "/f", "formParameters": {"t": {"hasExactly": [{"equalTo": "a"}, {"equalTo": "b"}]}}}"#
        #expect(try answers(multi, [form("t=b&t=a"), form("t=a"), form("t=a&t=b&t=c"), form("")]) == [true, false, false, false])
    }

    @Test("matchesJsonSchema (WireMock 3) on a body, as a string or a JSON operand, with schemaVersion")
    func jsonSchema() throws {
        let schema = #"{"method": "POST", "urlPath": "/b", "bodyPatterns": [{"matchesJsonSchema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 3}}}}]}"#
        #expect(try answers(schema, [post(#"{"n": 2}"#), post(#"{"n": 4}"#), post("{}"), post("")]) == [true, false, false, false])
        let versioned = #"{"method": "POST", "urlPath": "/b", "bodyPatterns": [{"matchesJsonSchema": "{\"type\": \"number\", \"maximum\": 3, \"exclusiveMaximum\": true}", "schemaVersion": "V4"}]}"#
        #expect(try answers(versioned, [post("2"), post("3")]) == [true, false])
    }

    @Test("an unknown matcher is reported with its place, never ignored")
    func unknownMatcher() throws {
        let json = #"{"request": {"method": "GET", "url": "/h", "headers": {"X-Thing": {"matchesJsonPath": "$.a"}}}, "response": {}}"#
        let imported = try WireMockFormat.decode(Array(json.utf8), file: "inline.json")
        #expect(imported.warnings.map(\.path) == [#"$.request.headers["X-Thing"].matchesJsonPath"#])
    }
}
