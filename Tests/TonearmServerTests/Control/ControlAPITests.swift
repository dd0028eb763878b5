import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("Server: control API")
struct ControlAPITests {
    @Test("Switching cassettes per test saves the first and replays the second")
    func switchCassette() async throws {
        let folder = try TemporaryFolder()
        let first = folder.file("first.json"), second = folder.file("second.json")
        let upstream = try await TestUpstream()
        let server = try await TonearmServer.start(quietConfiguration(cassette: first, mode: .missing, hosts: [upstream.origin]))
        let base = server.baseURL(for: upstream.authority).absoluteString
        _ = try await TestClient.send(base + "/one")
        let switched = try await TestClient.send(
            server.baseURL.absoluteString + "/__tonearm/cassette", method: "POST",
            body: #"{"path":"\#(second.path)","mode":"missing","strategy":"uniquePlay"}"#)
        #expect(switched.status == 200)
        #expect(switched.text.contains("uniquePlay"))
        _ = try await TestClient.send(base + "/two")
        try await server.stop()
        try await upstream.stop()
        #expect(try CassetteFile.load(first).cassette.tracks.map(\.request.url) == [upstream.origin + "/one"])
        #expect(try CassetteFile.load(second).cassette.tracks.map(\.request.url) == [upstream.origin + "/two"])
    }

    @Test("POST cassette refuses a body that is not an object of strings with 400 saying why; null means unchanged")
    func cassetteRequestBody() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let endpoint = server.baseURL.absoluteString + "/__tonearm/cassette"
        let malformed = try await TestClient.send(endpoint, method: "POST", body: #"{"mode": "missing""#)
        let notObject = try await TestClient.send(endpoint, method: "POST", body: #"["replay"]"#)
        let wrongType = try await TestClient.send(endpoint, method: "POST", body: #"{"mode": 5}"#)
        let nulls = try await TestClient.send(endpoint, method: "POST", body: #"{"path": null, "mode": "missing", "strategy": null, "other": 1}"#)
        try await server.stop()
        #expect(malformed.status == 400)
        #expect(malformed.text.contains("line 1"), "the syntax error's position: \(malformed.text)")
        #expect(notObject.status == 400)
        #expect(wrongType.status == 400)
        #expect(wrongType.text.contains("$.mode is 5, not a string"), "\(wrongType.text)")
        #expect(nulls.status == 200, "\(nulls.text)")
        let health = try JSONSerialization.jsonObject(with: Data(nulls.body)) as? [String: Any]
        #expect(health?["mode"] as? String == "missing")
        #expect(health?["cassette"] == nil)
    }

    @Test("Stubs added at runtime in the rule-file schema answer")
    func runtimeStubs() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let added = try await TestClient.send(
            server.baseURL.absoluteString + "/__tonearm/stubs", method: "POST",
            body: #"[{"name": "flags", "path": "^/v1/flags$", "status": 200, "json": {"dark": true}}]"#)
        let answer = try await TestClient.send(server.baseURL.absoluteString + "/v1/flags")
        let bad = try await TestClient.send(server.baseURL.absoluteString + "/__tonearm/stubs", method: "POST", body: #"[{"path": "("}]"#)
        try await server.stop()
        #expect(added.status == 200)
        #expect(answer.text == #"{"dark":true}"#)
        #expect(bad.status == 422)
    }

    @Test("Journal as JSON and HAR, misses with reports, reset rewinds uniquePlay")
    func journalMissesReset() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        try CassetteFile.save(Cassette(tracks: [Track(request: Request(url: "https://api.example.com/a"), response: Response(body: "a"))]), to: cassette, format: .native)
        var configuration = quietConfiguration(cassette: cassette)
        configuration.strategy = .uniquePlay
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/api.example.com/a")
        let exhausted = try await TestClient.send(base + "/api.example.com/a")
        _ = try await TestClient.send(base + "/__tonearm/reset", method: "POST")
        let again = try await TestClient.send(base + "/api.example.com/a")
        let journal = try await TestClient.send(base + "/__tonearm/journal")
        let har = try await TestClient.send(base + "/__tonearm/journal.har")
        let misses = try await TestClient.send(base + "/__tonearm/misses")
        try await server.stop()
        #expect(exhausted.status == 404)
        #expect(again.text == "a")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]])
        #expect(entries.map { $0["source"] as? String } == ["track", "miss", "track"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(har.body)) as? [String: Any])
        #expect(((log["log"] as? [String: Any])?["entries"] as? [Any])?.count == 3)
        let missList = try #require(try JSONSerialization.jsonObject(with: Data(misses.body)) as? [[String: Any]])
        #expect(missList.first?["reasonCode"] as? String == "exhausted")
    }

    @Test("Health, journal, misses and the JSON miss reply keep their field names, JSON types and compact sorted text")
    func documentShapes() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("shapes.json")
        try CassetteFile.save(Cassette(tracks: [
            Track(request: Request(url: "https://api.example.com/v1/users?page=1"), response: Response(body: "one"), name: "first page"),
            Track(request: Request(url: "https://api.example.com/v1/users?page=3"), response: Response(body: "three")),
        ]), to: cassette, format: .native)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/api.example.com/v1/users?page=1")
        let miss = try await TestClient.send(base + "/api.example.com/v1/users?page=2", headers: [("Accept", "application/json")])
        let health = try await TestClient.send(base + "/__tonearm/health")
        let journal = try await TestClient.send(base + "/__tonearm/journal")
        let misses = try await TestClient.send(base + "/__tonearm/misses")
        try await server.stop()
        let bare = try await TonearmServer.start(quietConfiguration())
        let bareHealth = try await TestClient.send(bare.baseURL.absoluteString + "/__tonearm/health")
        try await bare.stop()

        // Health, byte for byte: members sorted, no spaces, slashes as they are.
        let healthObject = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
        let strategy = try #require(healthObject["strategy"] as? String), url = try #require(healthObject["url"] as? String)
        #expect(health.text == #"{"cassette":"\#(cassette.path)","exchanges":2,"misses":1,"mode":"replay","recorded":0,"status":"ok","strategy":"\#(strategy)","stubs":0,"url":"\#(url)"}"#)
        #expect(health.headers.first(named: "Content-Type") == "application/json")
        // Without a cassette the member is left out, not null.
        let bareObject = try JSONSerialization.jsonObject(with: Data(bareHealth.body))
        #expect(jsonShape(bareObject) == [
            "status": "string", "url": "string", "mode": "string", "strategy": "string", "recorded": "number",
            "exchanges": "number", "misses": "number", "stubs": "number",
        ])

        let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.body)) as? [Any])
        #expect(entries.count == 2)
        for entry in entries {
            #expect(jsonShape(entry) == [
                "time": "string", "method": "string", "url": "string", "status": "number", "source": "string",
                "detail": "string", "latencyMilliseconds": "number",
            ])
        }

        let reply = try JSONSerialization.jsonObject(with: Data(miss.body))
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(misses.body)) as? [Any])
        #expect(listed.count == 1)
        let missShape = [
            "error": "string", "source": "string", "reason": "string", "reasonCode": "string", "method": "string",
            "url": "string", "key": "string", "nearest": "array", "report": "string",
        ]
        for document in [reply] + listed {
            #expect(jsonShape(document) == missShape)
            #expect((document as? [String: Any])?["error"] as? String == "tonearm-miss")
            let nearest = try #require((document as? [String: Any])?["nearest"] as? [Any])
            // A named track carries its name; an unnamed one leaves the member out.
            #expect(Set(nearest.map { jsonShape($0) }) == [
                ["position": "number", "name": "string", "method": "string", "url": "string", "differences": "array", "description": "string"],
                ["position": "number", "method": "string", "url": "string", "differences": "array", "description": "string"],
            ])
        }
        #expect(miss.headers.first(named: "Content-Type") == "application/json")
        // Byte for byte what the former Foundation encoding wrote (members sorted, slashes unescaped).
        #expect(miss.text == (try FormerMissDocument.encoding(miss.body, as: FormerMissDocument.self)))
        #expect(misses.text == (try FormerMissDocument.encoding(misses.body, as: [FormerMissDocument].self)))
    }

    @Test("--journal: the HAR journal is written when the server stops")
    func journalFile() async throws {
        let folder = try TemporaryFolder()
        var configuration = quietConfiguration()
        configuration.journal.file = folder.file("journal.har")
        configuration.journal.limit = 2
        let server = try await TonearmServer.start(configuration)
        for index in 0..<5 { _ = try await TestClient.send(server.baseURL.absoluteString + "/nothing/\(index)") }
        try await server.stop()
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("journal.har"))) as? [String: Any]
        let entries = (har?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { ($0["request"] as? [String: Any])?["url"] as? String } == ["/nothing/3", "/nothing/4"])
    }
}

/// A miss document as the server wrote it with `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`)
/// before it moved to the core's JSON writer: decoding an answer into it and encoding it again the old
/// way must give the answer's bytes back.
private struct FormerMissDocument: Codable {
    struct Near: Codable {
        var position: Int
        var name: String?
        var method: String
        var url: String
        var differences: [String]
        var description: String
    }

    var error: String
    var source: String
    var reason: String
    var reasonCode: String
    var method: String
    var url: String
    var key: String
    var nearest: [Near]
    var report: String

    static func encoding<Document: Codable>(_ body: [UInt8], as type: Document.Type) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try JSONDecoder().decode(type, from: Data(body))), as: UTF8.self)
    }
}
