import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock 3's value matchers `not`, `hasExactly` and `includes`, through a real server and client.
@Suite("WireMock 3 matchers")
struct WireMock3MatcherTests {
    private static func add(_ server: TonearmServer, _ mapping: String) async throws -> ClientResponse {
        try await TestClient.send(
            server.baseURL.absoluteString + "/__admin/mappings", method: "POST", headers: [("Content-Type", "application/json")], body: mapping)
    }

    @Test("not negates a matcher: a header not sent satisfies not(contains), one containing the text does not; a body too")
    func not() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        #expect(try await Self.add(server, #"{"request": {"method": "GET", "urlPath": "/n", "headers": {"X-Thing": {"not": {"contains": "thing"}}}}}"#).status == 201)
        #expect(try await TestClient.send(base + "/n").status == 200)
        #expect(try await TestClient.send(base + "/n", headers: [("X-Thing", "otherthings")]).status == 404)
        #expect(try await TestClient.send(base + "/n", headers: [("X-Thing", "otherstuff")]).status == 200)
        #expect(try await Self.add(server, #"{"request": {"method": "POST", "urlPath": "/b", "bodyPatterns": [{"not": {"matches": "[0-9]+"}}]}}"#).status == 201)
        #expect(try await TestClient.send(base + "/b", method: "POST", body: "abc").status == 200)
        #expect(try await TestClient.send(base + "/b", method: "POST", body: "123").status == 404)
        let miss = try await TestClient.send(base + "/b", method: "POST", body: "123")
        #expect(miss.text.contains("not(matches"), "\(miss.text)")
        try await server.stop()
    }

    @Test("hasExactly wants as many values as matchers, each matched by one value, in any order; includes wants each matched")
    func multiValue() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        #expect(try await Self.add(server, #"{"request": {"method": "GET", "urlPath": "/exact", "queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}, {"doesNotContain": "7"}, {"equalTo": "3"}]}}}}"#).status == 201)
        #expect(try await Self.add(server, #"{"request": {"method": "GET", "urlPath": "/includes", "headers": {"q": {"includes": [{"equalTo": "1"}, {"equalTo": "3"}]}}}}"#).status == 201)
        for (query, status) in [("?q=3&q=1&q=2", 200), ("?q=1&q=3&q=5", 200), ("?q=1&q=2&q=3&q=4", 404), ("?q=1&q=1&q=1", 404), ("", 404)] {
            #expect(try await TestClient.send(base + "/exact" + query).status == status, "\(query)")
        }
        #expect(try await TestClient.send(base + "/includes", headers: [("q", "3"), ("q", "9"), ("q", "1")]).status == 200)
        #expect(try await TestClient.send(base + "/includes", headers: [("q", "3"), ("q", "9")]).status == 404)
        #expect(try await TestClient.send(base + "/includes").status == 404)
        try await server.stop()
    }

    @Test("hasExactly and includes are refused where WireMock 3 takes one value: cookies, bodies, path parameters")
    func multiValueOnlyForRepeatedValues() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let cookie = try await Self.add(server, #"{"request": {"method": "GET", "urlPath": "/c", "cookies": {"c": {"includes": [{"equalTo": "1"}]}}}}"#)
        #expect(cookie.status == 422)
        #expect(cookie.text.contains("/request/cookies/c"), "\(cookie.text)")
        let body = try await Self.add(server, #"{"request": {"method": "POST", "urlPath": "/b", "bodyPatterns": [{"hasExactly": [{"equalTo": "1"}]}]}}"#)
        #expect(body.status == 422)
        try await server.stop()
    }
}
