import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// The inspector over HTTP, as the page uses it: a real server on 127.0.0.1 port 0 and a real client.
/// The page itself, in a real browser, is InspectorBrowserTests'.
@Suite("Server: the inspector's address, API and feed")
struct InspectorTests {
    private static let users = Track(
        request: Request(url: "https://api.example.com/v1/users?page=1"),
        response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: #"{"users":[{"id":1,"name":"<script>window.pwned=1</script>"}]}"#))

    /// A server replaying `tracks` from a native cassette, with its inspector address.
    private func server(_ tracks: [Track] = [users], in folder: TemporaryFolder, configure: (inout ServerConfiguration) -> Void = { _ in })
        async throws -> (server: TonearmServer, inspector: String, cassette: URL)
    {
        let cassette = try savedCassette(tracks, in: folder)
        var configuration = quietConfiguration(cassette: cassette)
        configure(&configuration)
        let server = try await TonearmServer.start(configuration)
        let inspector = try #require(server.inspectorURL).absoluteString
        return (server, inspector, cassette)
    }

    private func json(_ response: ClientResponse) throws -> JSONValue {
        try JSONValue(parsing: response.body)
    }

    @Test("The address carries the token: without it 401, a wrong one 403, no final slash 308; every answer has the page's security fields")
    func token() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, _) = try await server(in: folder)
        let base = server.baseURL.absoluteString + "/__tonearm/inspector"
        let page = try await TestClient.send(inspector)
        let missing = try await TestClient.send(base + "/")
        let bare = try await TestClient.send(base)
        let wrong = try await TestClient.send(base + "/0123456789abcdef0123456789abcdef/api/state")
        let unslashed = try await TestClient.send(String(inspector.dropLast()))
        let script = try await TestClient.send(inspector + "app.js")
        try await server.stop()
        #expect(inspector.hasPrefix(server.baseURL.absoluteString + "/__tonearm/inspector/"))
        let token = inspector.split(separator: "/").last.map(String.init) ?? ""
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(token)")
        #expect(page.status == 200)
        #expect(page.headers.first(named: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains(#"<script type="module" src="./app.js">"#))
        #expect(script.headers.first(named: "Content-Type") == "text/javascript; charset=utf-8")
        #expect(missing.status == 401 && bare.status == 401)
        #expect(wrong.status == 403)
        #expect(unslashed.status == 308)
        #expect(unslashed.headers.first(named: "Location") == "/__tonearm/inspector/\(token)/")
        for answer in [page, missing, wrong, script] {
            #expect(answer.headers.first(named: "Content-Security-Policy")?.hasPrefix("default-src 'self'; script-src 'self'") == true)
            #expect(answer.headers.first(named: "X-Content-Type-Options") == "nosniff")
            #expect(answer.headers.first(named: "Referrer-Policy") == "no-referrer")
            #expect(answer.headers.first(named: "Cache-Control") == "no-store")
        }
    }

    @Test("Two servers have different tokens, and one's token does not open the other's inspector")
    func tokensDiffer() async throws {
        let folder = try TemporaryFolder()
        let (first, firstInspector, _) = try await server(in: folder)
        let (second, secondInspector, _) = try await server(in: folder)
        let token = firstInspector.split(separator: "/").last.map(String.init) ?? ""
        let crossed = try await TestClient.send(second.baseURL.absoluteString + "/__tonearm/inspector/\(token)/api/state")
        try await first.stop()
        try await second.stop()
        #expect(firstInspector.split(separator: "/").last != secondInspector.split(separator: "/").last)
        #expect(crossed.status == 403)
    }

    @Test("Exchanges are listed newest last with what answered; a detail has heads and bodies, recorded markup as JSON text, a binary body as hex, secrets redacted")
    func exchangesAndDetail() async throws {
        let folder = try TemporaryFolder()
        let image = Track(
            request: Request(url: "https://api.example.com/logo.png"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "image/png")], body: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]))
        let (server, inspector, _) = try await server([Self.users, image], in: folder)
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/api.example.com/v1/users?page=1", headers: [("Authorization", "Bearer secret-token")])
        _ = try await TestClient.send(base + "/api.example.com/logo.png")
        _ = try await TestClient.send(base + "/api.example.com/v1/users?page=2")
        let list = try json(try await TestClient.send(inspector + "api/exchanges"))
        let after = try json(try await TestClient.send(inspector + "api/exchanges?after=1"))
        let first = try await TestClient.send(inspector + "api/exchanges/0")
        let binary = try json(try await TestClient.send(inspector + "api/exchanges/1"))
        let gone = try await TestClient.send(inspector + "api/exchanges/99")
        try await server.stop()
        guard case .array(let entries)? = list[member: "entries"] else {
            Issue.record("no entries: \(list.canonicalText)")
            return
        }
        #expect(entries.map { $0[member: "source"]?.stringValue } == ["track", "track", "miss"])
        #expect(entries.map { $0[member: "status"]?.intValue } == [200, 200, 404])
        #expect(entries.first?[member: "detail"]?.stringValue == "track #0")
        if case .array(let newer)? = after[member: "entries"] { #expect(newer.map { $0[member: "id"]?.intValue } == [2]) }
        let detail = try json(first)
        #expect(detail[member: "response"]?[member: "body"]?[member: "kind"]?.stringValue == "json")
        #expect(detail[member: "response"]?[member: "body"]?[member: "text"]?.stringValue?.contains("\"<script>window.pwned=1</script>\"") == true)
        #expect(!first.text.contains("secret-token"), "the Authorization header is redacted as recordings are")
        #expect(detail[member: "curl"]?.stringValue?.hasPrefix("curl 'https://api.example.com/v1/users?page=1'") == true)
        #expect(detail[member: "answeredBy"]?[member: "kind"]?.stringValue == "track")
        #expect(detail[member: "answeredBy"]?[member: "request"]?[member: "url"]?.stringValue == "https://api.example.com/v1/users?page=1")
        #expect(binary[member: "response"]?[member: "body"]?[member: "kind"]?.stringValue == "binary")
        #expect(binary[member: "response"]?[member: "body"]?[member: "hex"]?.stringValue?.hasPrefix("00000000  89 50 4e 47 0d 0a 1a 0a  00") == true)
        #expect(gone.status == 404)
    }

    @Test("Accept keeps the nearest track's response: the cassette file holds it and the same request then hits, without a restart")
    func acceptNearest() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, cassette) = try await server(in: folder)
        let base = server.baseURL.absoluteString
        let missed = try await TestClient.send(base + "/api.example.com/v1/users?page=2")
        let misses = try json(try await TestClient.send(inspector + "api/misses"))
        let accepted = try await TestClient.send(inspector + "api/misses/0/accept", method: "POST", body: #"{"candidate": 0}"#)
        let again = try await TestClient.send(base + "/api.example.com/v1/users?page=2")
        let inbox = try json(try await TestClient.send(inspector + "api/misses"))
        try await server.stop()
        #expect(missed.status == 404)
        guard case .array(let open)? = Optional(misses), let miss = open.first?[member: "miss"] else {
            Issue.record("no miss: \(misses.canonicalText)")
            return
        }
        #expect(miss[member: "reasonCode"]?.stringValue == "not-recorded")
        let difference = miss[member: "nearest"]?[index: 0]?[member: "differences"]?[index: 0]
        #expect(difference?[member: "field"]?.stringValue == "queryParameter")
        #expect(difference?[member: "name"]?.stringValue == "page")
        #expect(difference?[member: "recorded"] == .array([.string("1")]))
        #expect(difference?[member: "received"] == .array([.string("2")]))
        #expect(miss[member: "actions"]?[member: "accept"] == .bool(true))
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(try json(accepted)[member: "track"]?.intValue == 1)
        #expect(again.status == 200)
        #expect(again.text == Self.users.response?.bodyText)
        #expect(inbox == .array([]))
        let kept = try CassetteFile.load(cassette).cassette.tracks
        #expect(kept.map(\.request.url) == ["https://api.example.com/v1/users?page=1", "https://api.example.com/v1/users?page=2"])
    }

    @Test("Accept with a response edited in the page; a bad edit is refused with 400 naming the field")
    func acceptEdited() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, cassette) = try await server(in: folder)
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/api.example.com/v1/orders", method: "POST", body: #"{"item":1}"#)
        let bad = try await TestClient.send(
            inspector + "api/misses/0/accept", method: "POST", body: #"{"response": {"status": 201, "headers": [["Bad Name", "x"]]}}"#)
        let accepted = try await TestClient.send(
            inspector + "api/misses/0/accept", method: "POST",
            body: #"{"response": {"status": 201, "headers": [["Content-Type", "application/json"]], "body": "{\"order\": 7}"}}"#)
        let again = try await TestClient.send(base + "/api.example.com/v1/orders", method: "POST", body: #"{"item":1}"#)
        try await server.stop()
        #expect(bad.status == 400)
        #expect(bad.text.contains("$.response.headers[0]"))
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(again.status == 201)
        #expect(again.text == #"{"order": 7}"#)
        #expect(try CassetteFile.load(cassette).cassette.tracks.last?.response?.status == 201)
    }

    @Test("A cassette in a format Tonearm does not write: Accept says why with 409 and gives the track in the native format")
    func acceptReadOnly() async throws {
        let folder = try TemporaryFolder()
        let vcr = folder.file("c.yml")
        try Data("""
            http_interactions:
            - request: {method: get, uri: 'https://api.example.com/a', body: {encoding: UTF-8, string: ''}, headers: {}}
              response: {status: {code: 200, message: OK}, headers: {}, body: {encoding: UTF-8, string: a}}
            recorded_with: VCR 6.2.0
            """.utf8).write(to: vcr)
        let server = try await TonearmServer.start(quietConfiguration(cassette: vcr))
        let inspector = try #require(server.inspectorURL).absoluteString
        _ = try await TestClient.send(server.baseURL.absoluteString + "/api.example.com/b")
        let state = try json(try await TestClient.send(inspector + "api/state"))
        let refused = try await TestClient.send(inspector + "api/misses/0/accept", method: "POST", body: #"{"candidate": 0}"#)
        try await server.stop()
        #expect(state[member: "cassetteWritable"] == .bool(false))
        #expect(refused.status == 409)
        let document = try json(refused)
        #expect(document[member: "error"]?.stringValue?.contains("vcr") == true, "\(refused.text)")
        let native = try #require(document[member: "native"]?.stringValue)
        #expect(try NativeFormat.decode(Array(native.utf8)).tracks.first?.request.url == "https://api.example.com/b")
    }

    @Test("Record fetches a miss from its upstream and keeps it; Dismiss takes a miss out of the inbox")
    func recordAndDismiss() async throws {
        let folder = try TemporaryFolder()
        let upstream = try await TestUpstream { request in Response(status: 200, body: "fresh \(request.url)") }
        let (server, inspector, cassette) = try await server(in: folder) { $0.hosts = [UpstreamHost(upstream.origin)].compactMap { $0 } }
        let base = server.baseURL(for: upstream.authority).absoluteString
        _ = try await TestClient.send(base + "/new")
        _ = try await TestClient.send(base + "/other")
        let misses = try json(try await TestClient.send(inspector + "api/misses"))
        let recorded = try await TestClient.send(inspector + "api/misses/0/record", method: "POST", body: "{}")
        let dismissed = try await TestClient.send(inspector + "api/misses/1/dismiss", method: "POST", body: "{}")
        let replayed = try await TestClient.send(base + "/new")
        let inbox = try json(try await TestClient.send(inspector + "api/misses"))
        try await server.stop()
        try await upstream.stop()
        #expect(misses[index: 0]?[member: "miss"]?[member: "actions"]?[member: "record"] == .bool(true))
        #expect(recorded.status == 200, "\(recorded.text)")
        #expect(dismissed.status == 204)
        #expect(replayed.text == "fresh /new")
        #expect(upstream.requests.count == 1, "the replay came from the cassette, not the upstream")
        #expect(inbox == .array([]))
        #expect(try CassetteFile.load(cassette).cassette.tracks.last?.request.url == upstream.origin + "/new")
    }

    @Test("Accepting while recording keeps every recording: the kept track joins those recorded before and after it")
    func acceptWhileRecording() async throws {
        let folder = try TemporaryFolder()
        let upstream = try await TestUpstream { request in Response(status: 200, body: "live \(request.url)") }
        let (server, inspector, cassette) = try await server(in: folder) { $0.hosts = [UpstreamHost(upstream.origin)].compactMap { $0 } }
        let base = server.baseURL(for: upstream.authority).absoluteString
        _ = try await TestClient.send(base + "/missed")
        let switched = try await TestClient.send(inspector + "api/mode", method: "POST", body: #"{"mode": "missing"}"#)
        _ = try await TestClient.send(base + "/before")
        let accepted = try await TestClient.send(
            inspector + "api/misses/0/accept", method: "POST", body: #"{"response": {"status": 200, "body": "kept"}}"#)
        _ = try await TestClient.send(base + "/after")
        let replayed = try await TestClient.send(base + "/missed")
        try await server.stop()
        try await upstream.stop()
        #expect(switched.status == 200, "\(switched.text)")
        #expect(accepted.status == 200, "\(accepted.text)")
        #expect(replayed.text == "kept")
        #expect(try CassetteFile.load(cassette).cassette.tracks.map(\.request.url) == [
            "https://api.example.com/v1/users?page=1", upstream.origin + "/before", upstream.origin + "/missed", upstream.origin + "/after",
        ])
    }

    @Test("A cassette outside --cassette-dir is not written from the page: Accept says why")
    func acceptConfined() async throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let (server, inspector, cassette) = try await server(in: folder) { $0.cassetteDirectory = elsewhere.url }
        _ = try await TestClient.send(server.baseURL.absoluteString + "/api.example.com/v1/users?page=2")
        let refused = try await TestClient.send(inspector + "api/misses/0/accept", method: "POST", body: #"{"candidate": 0}"#)
        try await server.stop()
        #expect(refused.status == 409)
        #expect(refused.text.contains("only inside the cassette folder"), "\(refused.text)")
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 1)
    }

    @Test("The event feed sends the state, then each exchange as it happens, resuming after Last-Event-ID")
    func feed() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, _) = try await server(in: folder)
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/api.example.com/v1/users?page=1")
        var request = HTTPClientRequest(url: inspector + "events")
        request.headers.add(name: "Last-Event-ID", value: "0")
        let response = try await TestClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status.code == 200)
        #expect(response.headers.first(name: "Content-Type") == "text/event-stream; charset=utf-8")
        var text = ""
        var sentLive = false
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if !sentLive, text.contains("event: state") {
                sentLive = true
                _ = try await TestClient.send(base + "/api.example.com/v1/users?page=3")
            }
            if text.contains("page=3") { break }
        }
        try await server.stop()
        #expect(text.hasPrefix("event: state\ndata: {"))
        #expect(!text.contains("page=1"), "exchange 0 was before Last-Event-ID: \(text)")
        #expect(text.contains("event: exchanges\nid: 1\ndata: {"))
    }

    @Test("Other web pages can neither read the inspector nor act through it, token or not")
    func otherPages() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, cassette) = try await server(in: folder)
        _ = try await TestClient.send(server.baseURL.absoluteString + "/api.example.com/v1/users?page=2")
        let crossOrigin = try await TestClient.send(inspector + "api/exchanges", headers: [("Origin", "http://evil.example")])
        let crossSite = try await TestClient.send(inspector + "api/exchanges", headers: [("Sec-Fetch-Site", "cross-site")])
        let rebound = try await TestClient.send(inspector + "api/exchanges", headers: [("Host", "evil.example:\(server.port)")])
        let formPost = try await TestClient.send(
            inspector + "api/misses/0/accept", method: "POST", headers: [("Content-Type", "text/plain"), ("User-Agent", "Mozilla/5.0")],
            body: #"{"candidate": 0}"#)
        try await server.stop()
        for refused in [crossOrigin, crossSite, rebound, formPost] { #expect(refused.status == 403) }
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 1)
    }

    @Test("Beyond loopback the inspector is off unless asked for; asked for, it needs its own token, not the admin token")
    func beyondLoopback() async throws {
        var off = quietConfiguration()
        off.network.bindAddress = "0.0.0.0"
        off.adminToken = "admin-secret"
        let closed = try await TonearmServer.start(off)
        let refused = try await TestClient.send(
            "http://127.0.0.1:\(closed.port)/__tonearm/inspector/x/", headers: [("Authorization", "Bearer admin-secret")])
        try await closed.stop()
        #expect(closed.inspectorURL == nil)
        #expect(refused.status == 404)

        var on = off
        on.inspector.isEnabled = true
        let open = try await TonearmServer.start(on)
        let url = try #require(open.inspectorURL).absoluteString.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1")
        let page = try await TestClient.send(url)
        let control = try await TestClient.send("http://127.0.0.1:\(open.port)/__tonearm/health")
        try await open.stop()
        #expect(page.status == 200)
        #expect(control.status == 401, "the control API still needs the admin token")
    }

    @Test("Explain reads a curl command and says what would answer it, without consuming a unique-play track or journaling")
    func explain() async throws {
        let folder = try TemporaryFolder()
        let (server, inspector, _) = try await server(in: folder) { $0.strategy = .uniquePlay }
        let explained = try await TestClient.send(
            inspector + "api/explain", method: "POST", body: #"{"text": "curl -s 'https://api.example.com/v1/users?page=1'"}"#)
        let missing = try await TestClient.send(
            inspector + "api/explain", method: "POST", body: #"{"text": "GET /v1/users?page=9 HTTP/1.1\r\nHost: api.example.com\r\n\r\n"}"#)
        let broken = try await TestClient.send(inspector + "api/explain", method: "POST", body: #"{"text": "curl --frobnicate x"}"#)
        let played = try await TestClient.send(server.baseURL.absoluteString + "/api.example.com/v1/users?page=1")
        let journal = try json(try await TestClient.send(inspector + "api/exchanges"))
        let cassette = try json(try await TestClient.send(inspector + "api/cassette"))
        try await server.stop()
        let track = cassette[member: "tracks"]?[index: 0]
        #expect(track?[member: "plays"]?.intValue == 1)
        #expect(track?[member: "playable"] == .bool(false), "the unique-play track is used up once played")
        let document = try json(explained)
        #expect(document[member: "answer"]?[member: "kind"]?.stringValue == "track")
        #expect(document[member: "canonical"]?.stringValue?.contains("query 6 page=1") == true)
        #expect(try json(missing)[member: "answer"]?[member: "kind"]?.stringValue == "miss")
        #expect(broken.status == 400)
        #expect(try json(broken)[member: "line"]?.intValue == 1)
        #expect(played.status == 200, "explaining did not play the unique-play track")
        if case .array(let entries)? = journal[member: "entries"] { #expect(entries.count == 1) }
    }

    @Test("The embedded page is what Sources/TonearmServer/Inspector/Web holds (scripts/embed-inspector-assets.py --check)")
    func assetsCurrent() async throws {
        let script = packageRoot.appendingPathComponent("scripts/embed-inspector-assets.py").path
        let checked = try await ProcessRun.run("/usr/bin/env", ["python3", script, "--check"])
        #expect(checked.status == 0, "run scripts/embed-inspector-assets.py after editing the page: \(checked.errors)")
    }
}

extension JSONValue {
    /// The element at `index` of an array, or `nil`.
    fileprivate subscript(index index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The member named `key` of an object, or `nil`.
    fileprivate subscript(member key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}

extension Response {
    fileprivate var bodyText: String { String(decoding: body, as: UTF8.self) }
}
