import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("Server: misses and refusals")
struct MissAndRefusalTests {
    /// A replay-only server over one recorded track.
    private func replayServer(strategy: StrategyHint? = nil, tracks: [Track]? = nil) async throws -> TonearmServer {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        let recorded = tracks ?? [Track(
            request: Request(method: "GET", url: "https://api.example.com/v1/users?page=1"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: #"{"users":[]}"#))]
        try CassetteFile.save(Cassette(tracks: recorded), to: cassette, format: .native)
        var configuration = quietConfiguration(cassette: cassette, mode: .never)
        configuration.strategy = strategy
        return try await TonearmServer.start(configuration)
    }

    @Test("A miss is a 404 whose text body names the differing field, with a Tonearm-Miss header")
    func missAsText() async throws {
        let server = try await replayServer()
        let response = try await TestClient.send(server.baseURL(for: "api.example.com").absoluteString + "/v1/users?page=2")
        try await server.stop()
        #expect(response.status == 404)
        #expect(response.headers.first(named: "Tonearm-Miss") == "not-recorded")
        #expect(response.text.contains("page"))
        #expect(response.text.contains("https://api.example.com/v1/users?page=2"))
        #expect(server.misses.count == 1)
        #expect(server.journal.last?.source.kind == "miss")
    }

    @Test("With Accept: application/json the miss report is JSON listing the differences")
    func missAsJSON() async throws {
        let server = try await replayServer()
        let response = try await TestClient.send(
            server.baseURL(for: "api.example.com").absoluteString + "/v1/users?page=2", headers: [("Accept", "application/json")])
        try await server.stop()
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        #expect(object?["reasonCode"] as? String == "not-recorded")
        let nearest = object?["nearest"] as? [[String: Any]]
        let differences = nearest?.first?["differences"] as? [String]
        #expect(differences?.contains { $0.contains("page") } == true)
    }

    @Test("A miss beside stub rules names the closest rules and the conditions the request does not meet")
    func missNamesClosestRules() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let added = try await TestClient.send(
            base + "/__tonearm/stubs", method: "POST", headers: [("Content-Type", "application/json")],
            body: #"[{"name": "item", "method": "GET", "pattern": "^/items/[0-9]+$", "target": "path", "requestHeaders": {"X-Key": {"equals": "k1"}}, "status": 200}]"#)
        let text = try await TestClient.send(base + "/items/12", headers: [("X-Key", "k2")])
        let json = try await TestClient.send(base + "/items/12", headers: [("X-Key", "k2"), ("Accept", "application/json")])
        try await server.stop()
        #expect(added.status == 200 || added.status == 201, "\(added.text)")
        #expect(text.status == 404)
        #expect(text.text.contains("closest rules (of 1 compared):"), "\(text.text)")
        #expect(text.text.contains(#"header "X-Key": needs equals "k1", received "k2""#), "\(text.text)")
        let object = try JSONSerialization.jsonObject(with: Data(json.body)) as? [String: Any]
        let rules = try #require(object?["nearestRules"] as? [[String: Any]])
        #expect(rules.first?["name"] as? String == "item")
        #expect(rules.first?["pattern"] as? String == "^/items/[0-9]+$")
        #expect(rules.first?["differences"] as? [String] == [#"header "X-Key": needs equals "k1", received "k2""#])
    }

    @Test("uniquePlay: the second identical request misses as exhausted")
    func exhausted() async throws {
        let server = try await replayServer(strategy: .uniquePlay)
        let url = server.baseURL(for: "api.example.com").absoluteString + "/v1/users?page=1"
        let first = try await TestClient.send(url)
        let second = try await TestClient.send(url)
        try await server.stop()
        #expect(first.status == 200)
        #expect(second.status == 404)
        #expect(second.headers.first(named: "Tonearm-Miss") == "exhausted")
    }

    @Test("A host that is not allowed is refused with 403 and never reached")
    func disallowedHost() async throws {
        let upstream = try await TestUpstream()
        let server = try await TonearmServer.start(quietConfiguration(mode: .passthrough, hosts: ["api.example.com"]))
        let response = try await TestClient.send(server.baseURL(for: upstream.authority).absoluteString + "/x")
        let proxied = try await TestClient.send(server.baseURL.absoluteString + "/evil.example.org/x")
        try await server.stop()
        try await upstream.stop()
        #expect(response.status == 403)
        #expect(response.text.contains("not an allowed host"))
        #expect(proxied.status == 403)
        #expect(upstream.requests.isEmpty)
    }

    @Test("CONNECT to a server not intercepting HTTPS is refused 405, saying how to turn interception on")
    func connectRefused() async throws {
        let server = try await TonearmServer.start(quietConfiguration(mode: .passthrough, hosts: ["api.example.com"]))
        let connection = try RawConnection(port: server.port)
        connection.send("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n")
        let answer = try await connection.readToEnd()
        try await server.stop()
        // A response to CONNECT has no body (RFC 9112 §6.3), so the message travels in a header.
        #expect(answer.hasPrefix("HTTP/1.1 405"))
        #expect(answer.contains("Tonearm-Refused: CONNECT is not intercepted by this server: start it with --intercept-https"))
    }

    @Test("Recorded transport errors fault the connection: networkConnectionLost closes without a response")
    func transportErrorCloses() async throws {
        let server = try await replayServer(tracks: [Track(
            request: Request(method: "GET", url: "https://api.example.com/lost"), outcome: .transportError(.networkConnectionLost))])
        let connection = try RawConnection(port: server.port)
        connection.send("GET /api.example.com/lost HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try await connection.readToEnd()
        try await server.stop()
        #expect(answer.isEmpty)
        #expect(server.journal.last?.source.kind == "fault")
    }

    @Test("Track delays do not hold up other connections")
    func delaysDoNotBlock() async throws {
        let server = try await replayServer(tracks: [
            Track(request: Request(url: "https://api.example.com/slow"), response: Response(body: "slow"), delay: .seconds(8)),
            Track(request: Request(url: "https://api.example.com/fast"), response: Response(body: "fast")),
        ])
        // Two raw connections, so no client-side pooling can serialise them; the sequence runs on one
        // dispatch thread so a busy test runner cannot delay the client side past the slow track's delay.
        let slow = try RawConnection(port: server.port), fast = try RawConnection(port: server.port)
        let (fastAnswer, slowAnsweredFirst) = try await blocking {
            slow.send("GET /api.example.com/slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.1)
            fast.send("GET /api.example.com/fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let fastAnswer = fast.readBlocking().text
            // Ordering, not timing: the fast answer is complete while the slow one is still being delayed.
            return (fastAnswer, slow.hasDataWaiting())
        }
        let slowAnswer = try await slow.readToEnd()
        try await server.stop()
        #expect(fastAnswer.hasSuffix("fast"))
        #expect(slowAnswer.hasSuffix("slow"))
        #expect(!slowAnsweredFirst)
    }
}
