import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("Server: record, then replay with the upstream stopped")
struct RecordReplayTests {
    /// Records `paths` through a server in `missing` mode to a cassette in `folder`, stops the upstream,
    /// and returns the cassette.
    private func record(in folder: TemporaryFolder, _ exchange: (String) async throws -> Void) async throws -> (URL, TestUpstream) {
        let cassette = folder.file("recorded.json")
        let upstream = try await TestUpstream()
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        try await exchange(server.baseURL(for: upstream.authority).absoluteString)
        try await server.stop()
        try await upstream.stop()
        return (cassette, upstream)
    }

    @Test("AsyncHTTPClient: a recorded exchange replays identically, repeated headers in order")
    func asyncHTTPClient() async throws {
        var live: ClientResponse?
        let folder = try TemporaryFolder()
        let (cassette, upstream) = try await record(in: folder) { base in
            live = try await TestClient.send(base + "/v1/users?b=2&a=1", method: "POST", headers: [("Content-Type", "application/json")], body: #"{"name":"ada","age":36}"#)
        }
        #expect(upstream.requests.count == 1)
        #expect(upstream.requests.first?.headers.first(named: "Host") == upstream.authority)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        // Permuted query and reordered JSON keys replay the same track.
        let replayed = try await TestClient.send(
            server.baseURL(for: upstream.authority).absoluteString + "/v1/users?a=1&b=2", method: "POST",
            headers: [("Content-Type", "application/json")], body: #"{"age":36,"name":"ada"}"#)
        try await server.stop()
        let recorded = try #require(live)
        #expect(replayed.status == 200)
        #expect(replayed.body == recorded.body)
        #expect(replayed.headers.values(named: "X-Trace") == ["a", "b"])
        // Secrets are redacted before they reach the cassette.
        #expect(replayed.headers.values(named: "Set-Cookie") == ["<redacted>", "<redacted>"])
        #expect(recorded.headers.values(named: "Set-Cookie") == ["a=1", "b=2"])
        // The cassette carries the upstream's own URL, so URLSession replays it too.
        let loaded = try CassetteFile.load(cassette)
        #expect(loaded.cassette.tracks.first?.request.url == "\(upstream.origin)/v1/users?b=2&a=1")
    }

    @Test("URLSession: recorded through the server, replayed through the server and through TonearmSession")
    func urlSession() async throws {
        var live: Data?
        let folder = try TemporaryFolder()
        let (cassette, upstream) = try await record(in: folder) { base in
            let (data, _) = try await URLSession.shared.data(from: URL(string: base + "/v1/profile")!)
            live = data
        }
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        let (data, response) = try await URLSession.shared.data(from: server.baseURL(for: upstream.authority).appendingPathComponent("v1/profile"))
        try await server.stop()
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(data == live)
        let session = try TonearmSession.cassette(at: cassette, options: CassetteOptions(record: .never), environment: [:])
        let (direct, _) = try await session.urlSession.data(from: URL(string: upstream.origin + "/v1/profile")!)
        try session.finish()
        #expect(direct == live)
    }

    @Test("curl: recorded and replayed byte for byte", .enabled(if: curlPath != nil, "curl is not installed"))
    func curl() async throws {
        let curl = try #require(curlPath)
        var live = ""
        let folder = try TemporaryFolder()
        let (cassette, upstream) = try await record(in: folder) { base in
            live = try await ProcessRun.run(curl, ["-s", "-X", "PUT", "-d", "x=1", base + "/v1/items/7"]).output
        }
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        let replayed = try await ProcessRun.run(curl, ["-s", "-X", "PUT", "-d", "x=1", server.baseURL(for: upstream.authority).absoluteString + "/v1/items/7"])
        try await server.stop()
        #expect(!live.isEmpty)
        #expect(replayed.output == live)
    }

    @Test("Two upstreams behind one server, each by the host in the path")
    func twoUpstreams() async throws {
        let first = try await TestUpstream { _ in Response(status: 200, body: "first") }
        let second = try await TestUpstream { _ in Response(status: 201, body: "second") }
        let server = try await TonearmServer.start(quietConfiguration(mode: .passthrough, hosts: [first.origin, second.origin]))
        let a = try await TestClient.send(server.baseURL(for: first.authority).absoluteString + "/x")
        let b = try await TestClient.send(server.baseURL(for: second.authority).absoluteString + "/x")
        try await server.stop()
        try await first.stop()
        try await second.stop()
        #expect(a.text == "first" && a.status == 200)
        #expect(b.text == "second" && b.status == 201)
        #expect(first.requests.map(\.url) == ["/x"])
        #expect(second.requests.map(\.url) == ["/x"])
    }

    @Test("--upstream: origin-form requests go to the single upstream")
    func singleUpstream() async throws {
        let upstream = try await TestUpstream()
        let server = try await TonearmServer.start(quietConfiguration(mode: .passthrough, upstream: upstream.origin))
        let response = try await TestClient.send(server.baseURL.absoluteString + "/v1/things?q=1")
        try await server.stop()
        try await upstream.stop()
        #expect(response.status == 200)
        #expect(upstream.requests.map(\.url) == ["/v1/things?q=1"])
    }

    @Test("Forward proxy: an absolute-form target to an allowed host is proxied", .enabled(if: curlPath != nil, "curl is not installed"))
    func forwardProxy() async throws {
        let curl = try #require(curlPath)
        let upstream = try await TestUpstream { _ in Response(status: 200, body: "proxied") }
        let server = try await TonearmServer.start(quietConfiguration(mode: .passthrough, hosts: [upstream.origin]))
        let run = try await ProcessRun.run(curl, ["-s", "--proxy", server.baseURL.absoluteString, upstream.origin + "/via-proxy"])
        try await server.stop()
        try await upstream.stop()
        #expect(run.output == "proxied")
        #expect(upstream.requests.map(\.url) == ["/via-proxy"])
    }

    @Test("Upstream down in missing mode: 502 naming the upstream, nothing recorded")
    func upstreamDown() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("down.json")
        let down = try RefusingPort()
        let origin = down.origin, authority = down.authority
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [origin]))
        let response = try await TestClient.send(server.baseURL(for: authority).absoluteString + "/v1/x")
        try await server.stop()
        withExtendedLifetime(down) {}
        #expect(response.status == 502)
        #expect(response.text.contains(origin))
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
    }

    @Test("In missing mode a recorded track answers the next identical request without the network")
    func missingAnswersFromRecording() async throws {
        let folder = try TemporaryFolder()
        let upstream = try await TestUpstream()
        let server = try await TonearmServer.start(quietConfiguration(cassette: folder.file("c.json"), mode: .missing, hosts: [upstream.origin]))
        let base = server.baseURL(for: upstream.authority).absoluteString
        _ = try await TestClient.send(base + "/v1/once")
        let again = try await TestClient.send(base + "/v1/once")
        try await server.stop()
        try await upstream.stop()
        #expect(again.status == 200)
        #expect(upstream.requests.count == 1)
        #expect(server.journal.map(\.source.kind) == ["network", "recorded"])
    }
}
