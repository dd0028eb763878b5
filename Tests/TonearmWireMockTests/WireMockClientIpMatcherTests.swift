import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock 3's `clientIp` request matcher, through a real server and client on 127.0.0.1.
@Suite("WireMock 3's clientIp matcher")
struct WireMockClientIpMatcherTests {
    private static func admin(_ server: TonearmServer, _ path: String, _ body: String) async throws -> ClientResponse {
        try await TestClient.send(
            server.baseURL.absoluteString + path, method: "POST", headers: [("Content-Type", "application/json")], body: body)
    }

    @Test("a mapping answers only the client address its clientIp matcher accepts; one for another address is passed over")
    func mappingsMatchTheClientAddress() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        // The newer mapping is tried first (WireMock's order); it wants another address, so the older answers.
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request": {"method": "GET", "url": "/ip", "clientIp": {"matches": "127\\.0\\.0\\.[0-9]+"}}, "response": {"body": "loopback"}}"#).status == 201)
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request": {"method": "GET", "url": "/ip", "clientIp": {"equalTo": "192.168.1.1"}}, "response": {"body": "office"}}"#).status == 201)
        #expect(try await TestClient.send(base + "/ip").text == "loopback")
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request": {"method": "GET", "url": "/only-office", "clientIp": {"equalTo": "192.168.1.1"}}, "response": {"body": "office"}}"#).status == 201)
        let miss = try await TestClient.send(base + "/only-office")
        #expect(miss.status == 404)
        // A client cannot send the field the matcher reads (no HTTP/1.1 field name starts with a colon).
        #expect(try await TestClient.send(base + "/only-office", headers: [("X-Forwarded-For", "192.168.1.1")]).status == 404)
        try await server.stop()
    }

    @Test("requests/count and requests/find match journaled requests on their client address")
    func journalPatterns() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/a")
        _ = try await TestClient.send(base + "/b")
        let here = try await Self.admin(server, "/__admin/requests/count", #"{"method": "GET", "urlPathPattern": "/.*", "clientIp": {"equalTo": "127.0.0.1"}}"#)
        #expect(here.status == 200 && here.text.contains(#""count":2"#), "\(here.text)")
        let elsewhere = try await Self.admin(server, "/__admin/requests/count", #"{"method": "GET", "urlPathPattern": "/.*", "clientIp": {"equalTo": "10.0.0.1"}}"#)
        #expect(elsewhere.status == 200 && elsewhere.text.contains(#""count":0"#), "\(elsewhere.text)")
        try await server.stop()
    }
}
