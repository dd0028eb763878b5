import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock's recorder API (`/__admin/recordings/...`) through real servers and clients: what the
/// differential harness cannot see — secrets never reaching the disk, and a recording that keeps
/// answering once the upstream is gone and after a restart.
@Suite("WireMock recorder")
struct WireMockRecorderTests {
    private static func admin(_ base: String, _ path: String, body: String? = nil) async throws -> ClientResponse {
        try await TestClient.send(base + "/__admin/" + path, method: body == nil ? "GET" : "POST", body: body)
    }

    private static func json(_ response: ClientResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.text)")
    }

    /// Every file under `folder`, by name, with its text.
    private static func files(in folder: URL) -> [String: String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var result: [String: String] = [:]
        for name in names {
            result[name] = (FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)).map { String(decoding: $0, as: UTF8.self) }
        }
        return result
    }

    @Test("tonearm serve on port 0 records what a client fetched, answers it from the recording once the upstream is gone and after a restart, and never writes a secret")
    func recordsThroughServeAndRedactsOnDisk() async throws {
        let upstream = try await TestUpstream { request in
            Response(
                status: 200,
                headers: [HeaderField("Content-Type", "application/json"), HeaderField("Set-Cookie", "session=s3cr3t"), HeaderField("X-Up", "1")],
                body: Array(#"{"path": "\#(request.url)", "auth": "\#(request.headers.first(named: "Authorization") == nil ? "no" : "yes")"}"#.utf8))
        }
        let root = try TemporaryFolder()
        let server = try await ServeProcess(["--port", "0", "--bind", "127.0.0.1", "--root-dir", root.url.path])
        let base = server.url
        #expect(try Self.json(try await Self.admin(base, "recordings/status"))["status"] as? String == "NeverStarted")
        let started = try await Self.admin(
            base, "recordings/start", body: #"{"targetBaseUrl": "\#(upstream.origin)", "captureHeaders": {"Authorization": {}, "X-Client": {}}}"#)
        #expect(started.status == 200, "\(started.text)")
        #expect(try Self.json(try await Self.admin(base, "recordings/status"))["status"] as? String == "Recording")

        let live = try await TestClient.send(base + "/api/orders?page=2", headers: [("Authorization", "Bearer top-secret"), ("X-Client", "c1")])
        #expect(live.status == 200)
        #expect(live.text == #"{"path": "/api/orders?page=2", "auth": "yes"}"#)
        #expect(live.headers.first(named: "Set-Cookie") == "session=s3cr3t", "the client itself gets the upstream's answer as it was")

        let stopped = try await Self.admin(base, "recordings/stop", body: "")
        #expect(stopped.status == 200, "\(stopped.text)")
        let mappings = try #require(try Self.json(stopped)["mappings"] as? [[String: Any]])
        #expect(mappings.count == 1)
        let mapping = try #require(mappings.first)
        let request = try #require(mapping["request"] as? [String: Any])
        #expect(request["url"] as? String == "/api/orders?page=2")
        // The captured Authorization was redacted, so it is no matcher: only X-Client is.
        #expect((request["headers"] as? [String: Any])?.keys.sorted() == ["X-Client"])
        #expect(mapping["persistent"] as? Bool == true)
        #expect(mapping["name"] as? String == "api_orders")

        // On disk: mappings/<name>-<id>.json, with the secrets replaced.
        let saved = Self.files(in: root.url.appendingPathComponent("mappings"))
        let id = try #require(mapping["id"] as? String)
        let text = try #require(saved["api_orders-\(id).json"], "saved: \(saved.keys.sorted())")
        #expect(!text.contains("s3cr3t") && !text.contains("top-secret"))
        #expect(text.contains("<redacted>"))

        // The upstream gone, the recording answers (no Authorization needed: it was left out).
        try await upstream.stop()
        let replayed = try await TestClient.send(base + "/api/orders?page=2", headers: [("X-Client", "c1")])
        #expect(replayed.status == 200)
        #expect(replayed.text == live.text)
        #expect(replayed.headers.first(named: "X-Up") == "1")
        #expect(replayed.headers.first(named: "Set-Cookie") == "<redacted>")
        let exit = try await server.stop()
        #expect(exit.status == 0)

        // A new server on the same root directory reads the recorded file back with the one mapping reader.
        let restarted = try await ServeProcess(["--port", "0", "--bind", "127.0.0.1", "--root-dir", root.url.path])
        let again = try await TestClient.send(restarted.url + "/api/orders?page=2", headers: [("X-Client", "c1")])
        #expect(again.status == 200)
        #expect(again.text == live.text)
        #expect(try await restarted.stop().status == 0)
    }

    @Test("the server's own redaction (a configured header) is applied to recorded mappings, extracted body files and snapshots")
    func configuredRedactionAndSnapshot() async throws {
        let upstream = try await TestUpstream { request in
            Response(
                status: 201, headers: [HeaderField("Content-Type", "text/plain"), HeaderField("X-Api-Key", "k-123")],
                body: Array("a long enough answer for \(request.url)".utf8))
        }
        let root = try TemporaryFolder()
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        configuration.redaction = Redaction(headers: Redaction.defaultHeaders.union(["x-api-key"]))
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        let mapping = #"{"request": {"urlPathPattern": "/p/.*"}, "response": {"proxyBaseUrl": "\#(upstream.origin)"}}"#
        #expect(try await TestClient.send(base + "/__admin/mappings", method: "POST", body: mapping).status == 201)
        let proxied = try await TestClient.send(base + "/p/one")
        #expect(proxied.status == 201)
        #expect(proxied.headers.first(named: "X-Api-Key") == "k-123")

        let snapshot = try await Self.admin(base, "recordings/snapshot", body: #"{"extractBodyCriteria": {"textSizeThreshold": "8"}}"#)
        #expect(snapshot.status == 200, "\(snapshot.text)")
        let recorded = try #require((try Self.json(snapshot)["mappings"] as? [[String: Any]])?.first)
        let response = try #require(recorded["response"] as? [String: Any])
        #expect((response["headers"] as? [String: Any])?["X-Api-Key"] as? String == "<redacted>")
        let bodyFile = try #require(response["bodyFileName"] as? String)
        #expect(Self.files(in: root.url.appendingPathComponent("__files"))[bodyFile] == "a long enough answer for /p/one")
        let saved = Self.files(in: root.url.appendingPathComponent("mappings")).values.joined()
        #expect(!saved.isEmpty && !saved.contains("k-123"))
        try await upstream.stop()
        // The snapshot's mapping was added after the proxy mapping, so it answers now.
        let replayed = try await TestClient.send(base + "/p/one")
        #expect(replayed.status == 201)
        #expect(replayed.text == "a long enough answer for /p/one")
        try await server.stop()
    }

    @Test("filters.ids records only the serve events named, by the ids the journal lists")
    func filterByServeEventIDs() async throws {
        let upstream = try await TestUpstream { request in
            Response(status: 200, headers: [HeaderField("Content-Type", "text/plain")], body: Array("up \(request.url)".utf8))
        }
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        #expect(try await Self.admin(base, "recordings/start", body: #"{"targetBaseUrl": "\#(upstream.origin)", "persist": false}"#).status == 200)
        for path in ["/a", "/b", "/c"] { #expect(try await TestClient.send(base + path).status == 200) }
        let events = try #require(try Self.json(try await Self.admin(base, "requests"))["requests"] as? [[String: Any]])
        let idOfB = try #require(events.first { ($0["request"] as? [String: Any])?["url"] as? String == "/b" }?["id"] as? String)
        let stopped = try await Self.admin(base, "recordings/stop", body: "")
        #expect(((try Self.json(stopped)["mappings"] as? [[String: Any]]) ?? []).count == 3)
        let snapshot = try await Self.admin(
            base, "recordings/snapshot", body: #"{"persist": false, "outputFormat": "FULL", "filters": {"ids": ["\#(idOfB)"]}}"#)
        let recorded = try #require(try Self.json(snapshot)["mappings"] as? [[String: Any]], "\(snapshot.text)")
        #expect(recorded.map { ($0["request"] as? [String: Any])?["url"] as? String } == ["/b"])
        try await upstream.stop()
        try await server.stop()
    }

    @Test("a proxied answer over 64 KiB is recorded whole; one over the journal's recordable limit is refused with a 422 naming it, never recorded cut")
    func largeBodies() async throws {
        let size = 200 * 1024
        let upstream = try await TestUpstream { _ in
            Response(status: 200, headers: [HeaderField("Content-Type", "text/plain")], body: [UInt8](repeating: 0x61, count: size))
        }
        // The default journal keeps a proxied body whole up to 8 MiB.
        let root = try TemporaryFolder()
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        #expect(try await Self.admin(base, "recordings/start", body: #"{"targetBaseUrl": "\#(upstream.origin)"}"#).status == 200)
        #expect(try await TestClient.send(base + "/big").body.count == size)
        let stopped = try await Self.admin(base, "recordings/stop", body: "")
        #expect(stopped.status == 200, "\(stopped.text.prefix(300))")
        let replayed = try await TestClient.send(base + "/big")
        #expect(replayed.body.count == size, "the recorded mapping answers the whole body")
        try await server.stop()

        // A journal of 1 MiB keeps proxied bodies up to 128 KiB: a 200 KiB answer cannot be recorded.
        let smallRoot = try TemporaryFolder()
        var small = quietConfiguration()
        small.wireMock.rootDirectory = smallRoot.url
        small.journal.maximumBytes = 1024 * 1024
        let limited = try await TonearmServer.start(small)
        let limitedBase = limited.baseURL.absoluteString
        #expect(try await Self.admin(limitedBase, "recordings/start", body: #"{"targetBaseUrl": "\#(upstream.origin)"}"#).status == 200)
        #expect(try await TestClient.send(limitedBase + "/big").body.count == size, "the client gets the whole body")
        let refused = try await Self.admin(limitedBase, "recordings/stop", body: "")
        #expect(refused.status == 422)
        #expect(refused.text.contains("/big") && refused.text.contains("131072"), "\(refused.text)")
        #expect(Self.files(in: smallRoot.url.appendingPathComponent("mappings")).isEmpty)
        #expect(try Self.json(try await Self.admin(limitedBase, "recordings/status"))["status"] as? String == "Stopped")
        try await upstream.stop()
        try await limited.stop()
    }

    @Test("a recording longer than the journal keeps is refused at stop, saying how many exchanges were dropped, never recorded in part")
    func recordingPastTheJournalIsRefused() async throws {
        let upstream = try await TestUpstream { _ in Response(status: 200, body: "fine") }
        let root = try TemporaryFolder()
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        configuration.journal.limit = 3
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        #expect(try await Self.admin(base, "recordings/start", body: #"{"targetBaseUrl": "\#(upstream.origin)"}"#).status == 200)
        for index in 0..<5 { #expect(try await TestClient.send(base + "/page/\(index)").status == 200) }
        let stopped = try await Self.admin(base, "recordings/stop", body: "")
        #expect(stopped.status == 422, "\(stopped.text)")
        #expect(stopped.text.contains("dropped 2 exchanges"), "\(stopped.text)")
        #expect(Self.files(in: root.url.appendingPathComponent("mappings")).isEmpty)
        // A snapshot takes the journal as it is: the three exchanges it still holds.
        let snapshot = try await Self.admin(base, "recordings/snapshot", body: #"{"persist": false}"#)
        #expect((try Self.json(snapshot)["mappings"] as? [Any])?.count == 3, "\(snapshot.text)")
        try await upstream.stop()
        try await server.stop()
    }

    @Test("errors are WireMock's: stop without a recording is 400, start without targetBaseUrl 422 at /targetBaseUrl; the server keeps serving")
    func errors() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let stop = try await Self.admin(base, "recordings/stop", body: "")
        #expect(stop.status == 400)
        #expect(stop.text.contains("Not currently recording."))
        let start = try await Self.admin(base, "recordings/start", body: "{}")
        #expect(start.status == 422)
        #expect(start.text.contains(#""pointer":"/targetBaseUrl""#))
        let unknown = try await Self.admin(base, "recordings/start", body: #"{"targetBaseUrl": "http://127.0.0.1:1", "persist": "yes"}"#)
        #expect(unknown.status == 422)
        #expect(unknown.text.contains(#""pointer":"/persist""#))
        #expect(try Self.json(try await Self.admin(base, "recordings/status"))["status"] as? String == "NeverStarted")
        try await server.stop()
    }
}
