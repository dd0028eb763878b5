import HTTPTypes
import Testing
import Tonearm
import TonearmHTTPTypes

@Suite struct HTTPTypesBridgeTests {
    @Test func requestsRoundTripThroughHTTPRequest() throws {
        let request = Request(
            method: "POST", url: "https://api.example.com:8443/items?page=2",
            headers: [HeaderField("Content-Type", "application/json"), HeaderField("X-Tag", "a"), HeaderField("X-Tag", "b")],
            body: Array(#"{"name":"Ada"}"#.utf8))

        let http = try HTTPRequest(request)
        #expect(http.method == .post)
        #expect(http.scheme == "https")
        #expect(http.authority == "api.example.com:8443")
        #expect(http.path == "/items?page=2")
        #expect(http.headerFields[values: .init("X-Tag")!] == ["a", "b"])

        #expect(Request(http, body: request.body) == request)
    }

    @Test func aURLWithoutPathGetsTheRootPath() throws {
        let http = try HTTPRequest(Request(url: "http://127.0.0.1:8080?q=1"))
        #expect(http.path == "/?q=1")
        #expect(Request(http).url == "http://127.0.0.1:8080/?q=1")
    }

    @Test func responsesRoundTripThroughHTTPResponse() throws {
        let response = Response(
            status: 201, headers: [HeaderField("Location", "/items/1"), HeaderField("Set-Cookie", "a=1"), HeaderField("Set-Cookie", "b=2")],
            body: Array("created".utf8))
        let http = try HTTPResponse(response)
        #expect(http.status.code == 201)
        #expect(Response(http, body: response.body) == response)
    }

    @Test func whatHTTPTypesCannotHoldIsAnErrorNamingIt() {
        #expect(throws: HTTPTypesConversionError.invalidMethod("GE T")) {
            try HTTPRequest(Request(method: "GE T", url: "https://example.com/"))
        }
        #expect(throws: HTTPTypesConversionError.invalidURL("/relative")) {
            try HTTPRequest(Request(url: "/relative"))
        }
        #expect(throws: HTTPTypesConversionError.invalidHeaderName("Bad Name")) {
            try HTTPFields([HeaderField("Bad Name", "x")])
        }
        #expect(throws: HTTPTypesConversionError.invalidStatus(42)) {
            try HTTPResponse(Response(status: 42))
        }
    }

    /// Why the core keeps its own headers: HTTPFields legalises a value a server really sent, and a
    /// recording must replay it byte for byte.
    @Test func httpFieldsLegaliseWhatTonearmKeeps() throws {
        let raw = HeaderField("X-Raw", "a\rb")
        let fields = try HTTPFields([raw])
        #expect([HeaderField](fields) != [raw])
        #expect(Response(status: 200, headers: [raw]).headers == [raw])
    }
}
