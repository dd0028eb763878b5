import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// What a web page in the developer's browser, a rebound DNS name or a careless path could do to the
/// control (`/__tonearm/`) and admin (`/__admin/`) APIs, tried against a real server with real clients.
@Suite("Server: the control plane refuses other web pages and stays in its folders")
struct ControlPlaneSecurityTests {
    /// A cassette of one track for `https://api.example.com/a`.
    private static func oneTrackCassette(_ file: URL) throws {
        try CassetteFile.save(
            Cassette(tracks: [Track(request: Request(url: "https://api.example.com/a"), response: Response(body: "a"))]),
            to: file, format: .native)
    }

    /// The whole answer to `head` (request line and headers, no body) sent on a raw connection.
    private static func raw(_ port: Int, _ head: String) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.send(head.replacingOccurrences(of: "\n", with: "\r\n") + "Connection: close\r\n\r\n")
        return try await connection.readToEnd()
    }

    @Test("cross-origin text/plain POSTs to /__tonearm/stubs and /__admin/mappings are refused 403 and plant nothing")
    func crossOriginPlanting() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let page = [("Origin", "http://attacker.example"), ("Content-Type", "text/plain")]
        let stub = try await TestClient.send(
            base + "/__tonearm/stubs", method: "POST", headers: page,
            body: #"[{"path": "^/v1/flags$", "json": {"planted": true}}]"#)
        let mapping = try await TestClient.send(
            base + "/__admin/mappings", method: "POST", headers: page,
            body: #"{"request": {"method": "GET", "url": "/v1/planted"}, "response": {"status": 200, "body": "planted"}}"#)
        // The same bodies as text/plain without an Origin (a browser that leaves it out: its User-Agent
        // still says it is one) are refused too.
        let plain = try await TestClient.send(
            base + "/__admin/mappings", method: "POST",
            headers: [("Content-Type", "text/plain"), ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:68.0) Gecko/20100101 Firefox/68.0")],
            body: #"{"request": {"method": "GET", "url": "/v1/planted"}, "response": {"status": 200, "body": "planted"}}"#)
        let flags = try await TestClient.send(base + "/v1/flags")
        let planted = try await TestClient.send(base + "/v1/planted")
        let mappings = try await TestClient.send(base + "/__admin/mappings")
        try await server.stop()
        #expect(stub.status == 403)
        #expect(stub.text.contains("Origin \"http://attacker.example\""), "\(stub.text)")
        #expect(mapping.status == 403)
        #expect(plain.status == 403)
        #expect(plain.text.contains("Content-Type: application/json"), "\(plain.text)")
        #expect(stub.headers.contains { $0.name == "Tonearm-Refused" })
        #expect(flags.status == 404, "nothing planted: \(flags.text)")
        #expect(planted.status == 404, "nothing planted: \(planted.text)")
        #expect(mappings.text.contains(#""total":0"#), "\(mappings.text)")
    }

    @Test("a wrong Host is refused on control and admin routes while a traffic route still replays")
    func dnsRebinding() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        try Self.oneTrackCassette(cassette)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        let port = server.port
        let control = try await Self.raw(port, "GET /__tonearm/health HTTP/1.1\nHost: attacker.example:\(port)\n")
        let admin = try await Self.raw(port, "GET /__admin/mappings HTTP/1.1\nHost: attacker.example:\(port)\n")
        let save = try await Self.raw(port, "POST /__tonearm/save HTTP/1.1\nHost: attacker.example:\(port)\nContent-Length: 0\n")
        let traffic = try await Self.raw(port, "GET /api.example.com/a HTTP/1.1\nHost: attacker.example:\(port)\n")
        let own = try await Self.raw(port, "GET /__tonearm/health HTTP/1.1\nHost: localhost:\(port)\n")
        try await server.stop()
        #expect(control.hasPrefix("HTTP/1.1 403"), "\(control)")
        #expect(control.contains("DNS rebinding"), "\(control)")
        #expect(admin.hasPrefix("HTTP/1.1 403"), "\(admin)")
        #expect(save.hasPrefix("HTTP/1.1 403"), "\(save)")
        #expect(traffic.hasPrefix("HTTP/1.1 200"), "\(traffic)")
        #expect(traffic.hasSuffix("a"), "\(traffic)")
        #expect(own.hasPrefix("HTTP/1.1 200"), "\(own)")
    }

    @Test("Sec-Fetch-Site: cross-site is refused, same-origin is answered (curl)", .enabled(if: curlPath != nil))
    func fetchSite() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let curl = try #require(curlPath)
        let url = server.baseURL.absoluteString + "/__tonearm/journal"
        let crossSite = try await ProcessRun.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Sec-Fetch-Site: cross-site", url])
        let sameOrigin = try await ProcessRun.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Sec-Fetch-Site: same-origin", url])
        let reset = try await ProcessRun.run(
            curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Sec-Fetch-Site: cross-site", server.baseURL.absoluteString + "/__admin/reset"])
        // What curl users type: a bodiless POST, and JSON with --json's header.
        let bodiless = try await ProcessRun.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", server.baseURL.absoluteString + "/__admin/reset"])
        // curl -d labels the body as a form; from curl (its own User-Agent) that is a program's request
        // and is read as the JSON it is. Sent as a browser would (its User-Agent), it is refused.
        let formPost = try await ProcessRun.run(
            curl, ["-s", "-w", "\n%{http_code}", "-d", #"{"path": null}"#, server.baseURL.absoluteString + "/__tonearm/cassette"])
        let browserFormPost = try await ProcessRun.run(
            curl, ["-s", "-w", "\n%{http_code}", "-A", "Mozilla/5.0 (X11; Linux x86_64)", "-d", #"{"path": null}"#,
                   server.baseURL.absoluteString + "/__tonearm/cassette"])
        let jsonPost = try await ProcessRun.run(
            curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-d", #"{"path": null}"#,
                   server.baseURL.absoluteString + "/__tonearm/cassette"])
        try await server.stop()
        #expect(crossSite.output == "403")
        #expect(sameOrigin.output == "200")
        #expect(reset.output == "403")
        #expect(bodiless.output == "200")
        #expect(formPost.output.hasSuffix("200"), "curl -d from curl: \(formPost.output)")
        #expect(browserFormPost.output.hasSuffix("403"), "a form type from a browser: \(browserFormPost.output)")
        #expect(browserFormPost.output.contains("--json"), "the refusal says how to send JSON: \(browserFormPost.output)")
        #expect(jsonPost.output == "200")
    }

    @Test("with an admin token, control and admin requests need Authorization: Bearer TOKEN; traffic does not")
    func adminToken() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        try Self.oneTrackCassette(cassette)
        var configuration = quietConfiguration(cassette: cassette)
        configuration.adminToken = "s3cret"
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        let missing = try await TestClient.send(base + "/__tonearm/health")
        let wrong = try await TestClient.send(base + "/__admin/mappings", headers: [("Authorization", "Bearer guess")])
        let right = try await TestClient.send(base + "/__tonearm/health", headers: [("Authorization", "Bearer s3cret")])
        let stubbed = try await TestClient.send(
            base + "/__tonearm/stubs", method: "POST", headers: [("Authorization", "Bearer s3cret")],
            body: #"[{"path": "^/v1/flags$", "json": {"dark": true}}]"#)
        let reset = try await TestClient.send(base + "/__admin/reset", method: "POST", headers: [("Authorization", "Bearer s3cret")])
        let traffic = try await TestClient.send(base + "/api.example.com/a")
        let flags = try await TestClient.send(base + "/v1/flags")
        try await server.stop()
        #expect(missing.status == 401)
        #expect(missing.text.contains("--admin-token"))
        #expect(missing.headers.contains(HeaderField("WWW-Authenticate", "Bearer")))
        #expect(wrong.status == 401)
        #expect(right.status == 200)
        #expect(stubbed.status == 200)
        #expect(reset.status == 200)
        #expect(traffic.text == "a")
        #expect(flags.text == #"{"dark":true}"#)
    }

    @Test("binding beyond loopback without an admin token is refused at start, saying why (Swift API)")
    func exposedBindSwiftAPI() async throws {
        var configuration = quietConfiguration()
        configuration.network.bindAddress = "192.0.2.1"
        let error = try await #require(throws: ServerError.self) { try await TonearmServer.start(configuration) }
        #expect(error.description.contains("--admin-token"), "\(error)")
        #expect(error.description.contains("192.0.2.1"), "\(error)")
        #expect(error.description.contains("--admin-token, ServerConfiguration.adminToken"), "one line, no run of spaces: \(error)")
    }

    @Test("tonearm serve --bind 192.0.2.1 without --admin-token exits 2, saying why")
    func exposedBindCommand() async throws {
        let tonearm = try #require(builtExecutable("tonearm"))
        let run = try await ProcessRun.run(tonearm.path, ["serve", "--bind", "192.0.2.1", "--port", "0"])
        #expect(run.status == 2, "\(run.output)\n\(run.errors)")
        #expect(run.errors.contains("--admin-token"), "\(run.errors)")
        #expect(!run.output.contains("listening"), "it never listened: \(run.output)")
        let empty = try await ProcessRun.run(tonearm.path, ["serve", "--admin-token", ""])
        #expect(empty.status != 0)
        #expect(empty.errors.contains("empty"), "\(empty.errors)")
    }

    @Test("POST cassette outside the cassette folder is refused (absolute, .., a link out) and creates nothing")
    func cassetteFolder() async throws {
        let folder = try TemporaryFolder(), outside = try TemporaryFolder()
        let cassette = folder.file("start.json")
        try Self.oneTrackCassette(cassette)
        try Self.oneTrackCassette(outside.file("theirs.json"))
        try FileManager.default.createSymbolicLink(at: folder.file("link"), withDestinationURL: outside.url)
        try FileManager.default.createSymbolicLink(at: folder.file("theirs.json"), withDestinationURL: outside.file("theirs.json"))
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing))
        let endpoint = server.baseURL.absoluteString + "/__tonearm/cassette"
        let name = outside.url.lastPathComponent
        var refused: [String: ClientResponse] = [:]
        for path in [outside.file("new.json").path, "../\(name)/new.json", "link/new.json", "theirs.json", outside.url.path, "/etc"] {
            refused[path] = try await TestClient.send(endpoint, method: "POST", body: #"{"path": "\#(path)", "mode": "all"}"#)
        }
        let relative = try await TestClient.send(endpoint, method: "POST", body: #"{"path": "second.json", "mode": "missing"}"#)
        try await server.stop()
        for (path, answer) in refused {
            #expect(answer.status == 403, "\(path): \(answer.text)")
            #expect(answer.text.contains("--cassette-dir"), "\(path): \(answer.text)")
            #expect(answer.text.contains(folder.url.resolvingSymlinksInPath().path), "names the folder: \(answer.text)")
        }
        #expect(relative.status == 200, "\(relative.text)")
        #expect(relative.text.contains(folder.file("second.json").path), "relative paths resolve in the folder: \(relative.text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.url.path) == ["theirs.json"], "nothing created outside")
        #expect(try CassetteFile.load(outside.file("theirs.json")).cassette.tracks.count == 1, "nothing truncated outside")
    }

    @Test("--cassette-dir widens the folder; a server without a cassette confines to the directory given")
    func cassetteDirectoryOption() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("cassettes/checkout"), withIntermediateDirectories: true)
        try Self.oneTrackCassette(folder.file("cassettes/checkout/one.json"))
        var configuration = quietConfiguration()
        configuration.cassetteDirectory = folder.file("cassettes")
        let server = try await TonearmServer.start(configuration)
        let endpoint = server.baseURL.absoluteString + "/__tonearm/cassette"
        let inside = try await TestClient.send(endpoint, method: "POST", body: #"{"path": "checkout/one.json"}"#)
        let replayed = try await TestClient.send(server.baseURL.absoluteString + "/api.example.com/a")
        let beside = try await TestClient.send(endpoint, method: "POST", body: #"{"path": "\#(folder.file("other.json").path)"}"#)
        try await server.stop()
        #expect(inside.status == 200, "\(inside.text)")
        #expect(replayed.text == "a")
        #expect(beside.status == 403)
        #expect(!FileManager.default.fileExists(atPath: folder.file("other.json").path))
    }

    @Test("switching away from a cassette loaded in all mode with nothing recorded leaves the file intact (HTTP)")
    func allModeTruncationHTTP() async throws {
        let folder = try TemporaryFolder()
        let kept = folder.file("kept.json")
        try Self.oneTrackCassette(kept)
        var configuration = quietConfiguration()
        configuration.cassetteDirectory = folder.url
        let server = try await TonearmServer.start(configuration)
        let endpoint = server.baseURL.absoluteString + "/__tonearm/cassette"
        let loaded = try await TestClient.send(endpoint, method: "POST", body: #"{"path": "kept.json", "mode": "all"}"#)
        let away = try await TestClient.send(endpoint, method: "POST", body: #"{"path": null}"#)
        try await server.stop()
        #expect(loaded.status == 200, "\(loaded.text)")
        #expect(away.status == 200, "\(away.text)")
        #expect(try CassetteFile.load(kept).cassette.tracks.count == 1)
    }

    @Test("the same through the Swift API: load(cassette:mode: .all), then away, and stop, keep the file")
    func allModeTruncationSwiftAPI() async throws {
        let folder = try TemporaryFolder()
        let kept = folder.file("kept.json")
        try Self.oneTrackCassette(kept)
        let server = try await TonearmServer.start(quietConfiguration())
        try server.load(cassette: kept, mode: .all)
        try server.save()
        try server.load(cassette: nil)
        try server.load(cassette: kept, mode: .all)
        try await server.stop()
        #expect(try CassetteFile.load(kept).cassette.tracks.count == 1)
    }

    @Test("a __files link leading out of the root directory is refused (admin API and --root-dir); one inside is served")
    func bodyFileLinks() async throws {
        let root = try TemporaryFolder(), outside = try TemporaryFolder()
        try outside.write("secret.txt", "secret")
        let files = root.file("__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.file("mappings"), withIntermediateDirectories: true)
        try root.write("__files/real.txt", "real")
        try FileManager.default.createSymbolicLink(at: files.appendingPathComponent("leak.txt"), withDestinationURL: outside.file("secret.txt"))
        try FileManager.default.createSymbolicLink(at: files.appendingPathComponent("inside.txt"), withDestinationURL: files.appendingPathComponent("real.txt"))
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        let server = try await TonearmServer.start(configuration)
        let base = server.baseURL.absoluteString
        let leak = try await TestClient.send(
            base + "/__admin/mappings", method: "POST",
            body: #"{"request": {"method": "GET", "url": "/leak"}, "response": {"status": 200, "bodyFileName": "leak.txt"}}"#)
        let inside = try await TestClient.send(
            base + "/__admin/mappings", method: "POST",
            body: #"{"request": {"method": "GET", "url": "/inside"}, "response": {"status": 200, "bodyFileName": "inside.txt"}}"#)
        let leaked = try await TestClient.send(base + "/leak")
        let served = try await TestClient.send(base + "/inside")
        try await server.stop()
        #expect((400..<500).contains(leak.status), "\(leak.status) \(leak.text)")
        #expect(leak.text.contains("outside"), "\(leak.text)")
        #expect(!leaked.text.contains("secret"))
        #expect(inside.status == 201, "\(inside.text)")
        #expect(served.text == "real")

        // The same mapping in the root directory fails the start, naming the file.
        try root.write("mappings/leak.json", #"{"request": {"method": "GET", "url": "/leak"}, "response": {"bodyFileName": "leak.txt"}}"#)
        let error = try await #require(throws: ServerError.self) { try await TonearmServer.start(configuration) }
        #expect(error.description.contains("leak.json"), "\(error)")
        #expect(error.description.contains("outside"), "\(error)")
    }

    @Test("a __files folder that is itself a link out of the root directory is refused: the server does not start, loading the root fails")
    func bodyFilesFolderLink() async throws {
        let root = try TemporaryFolder(), outside = try TemporaryFolder()
        try outside.write("secret.txt", "secret")
        try FileManager.default.createDirectory(at: root.file("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.file("__files"), withDestinationURL: outside.url)
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        let error = try await #require(throws: ServerError.self) { try await TonearmServer.start(configuration) }
        #expect(error.description.contains("__files"), "\(error)")
        #expect(error.description.contains("outside"), "\(error)")

        // The cassette reader (`lint`, `convert`, `explain` on a root folder) applies the same check.
        try root.write("mappings/leak.json", #"{"request": {"method": "GET", "url": "/leak"}, "response": {"bodyFileName": "secret.txt"}}"#)
        let loading = try #require(throws: CassetteError.self) { try WireMockFormat.load(contentsOf: root.url) }
        #expect(loading.description.contains("outside"), "\(loading)")
    }

    @Test("a mapping file linked from outside the root directory is refused at start")
    func mappingFileLinks() async throws {
        let root = try TemporaryFolder(), outside = try TemporaryFolder()
        try outside.write("planted.json", #"{"request": {"method": "GET", "url": "/planted"}, "response": {"body": "planted"}}"#)
        try FileManager.default.createDirectory(at: root.file("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.file("mappings/planted.json"), withDestinationURL: outside.file("planted.json"))
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root.url
        let error = try await #require(throws: ServerError.self) { try await TonearmServer.start(configuration) }
        #expect(error.description.contains("planted.json"), "\(error)")
        #expect(error.description.contains("outside"), "\(error)")
    }
}
