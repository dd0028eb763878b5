import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
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

    @Test("--journal: the HAR journal is written when the server stops")
    func journalFile() async throws {
        let folder = try TemporaryFolder()
        var configuration = quietConfiguration()
        configuration.journalFile = folder.file("journal.har")
        configuration.journalLimit = 2
        let server = try await TonearmServer.start(configuration)
        for index in 0..<5 { _ = try await TestClient.send(server.baseURL.absoluteString + "/nothing/\(index)") }
        try await server.stop()
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("journal.har"))) as? [String: Any]
        let entries = (har?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { ($0["request"] as? [String: Any])?["url"] as? String } == ["/nothing/3", "/nothing/4"])
    }
}
