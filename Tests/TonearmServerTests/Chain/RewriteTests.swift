import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("Server: --rewrite-urls")
struct RewriteTests {
    /// Replays one response through a rewriting server for api.example.com and returns what the client got.
    private func served(_ response: Response) async throws -> (ClientResponse, String) {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        try CassetteFile.save(Cassette(tracks: [Track(request: Request(url: "https://api.example.com/page"), response: response)]), to: cassette, format: .native)
        var configuration = quietConfiguration(cassette: cassette, hosts: ["api.example.com"])
        configuration.rewritesURLs = true
        let server = try await TonearmServer.start(configuration)
        let answer = try await TestClient.send(server.baseURL(for: "api.example.com").absoluteString + "/page")
        try await server.stop()
        return (answer, server.baseURL.absoluteString)
    }

    @Test("Own-host URLs in JSON are rewritten; other hosts, and our URL inside their query, are not")
    func json() async throws {
        let body = #"{"next":"https://api.example.com/v1/items?page=2","cdn":"https://cdn.other.com/a.png","login":"https://auth.other.com/?return=https://api.example.com/home","twin":"https://api.example.com.evil.com/x"}"#
        let (answer, base) = try await served(Response(headers: [HeaderField("Content-Type", "application/json")], body: body))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: String])
        #expect(object["next"] == "\(base)/api.example.com/v1/items?page=2")
        #expect(object["cdn"] == "https://cdn.other.com/a.png")
        #expect(object["login"] == "https://auth.other.com/?return=https://api.example.com/home")
        #expect(object["twin"] == "https://api.example.com.evil.com/x")
        #expect(answer.headers.first(named: "Content-Length") == String(answer.body.count))
    }

    @Test("URLs written with escaped slashes keep their escaping")
    func escapedSlashes() async throws {
        let body = #"{"next":"https:\/\/api.example.com\/v1\/items"}"#
        let (answer, base) = try await served(Response(headers: [HeaderField("Content-Type", "application/json")], body: body))
        let escapedBase = base.replacingOccurrences(of: "/", with: "\\/")
        #expect(answer.text == #"{"next":"\#(escapedBase)\/api.example.com\/v1\/items"}"#)
    }

    @Test("A gzip body is decoded, rewritten and served identity with a correct Content-Length")
    func gzip() async throws {
        let plain = #"{"self":"https://api.example.com/me"}"#
        let compressed = try await gzipped(Array(plain.utf8))
        let (answer, base) = try await served(Response(headers: [
            HeaderField("Content-Type", "application/json"), HeaderField("Content-Encoding", "gzip"),
            HeaderField("Content-Length", String(compressed.count)),
        ], body: compressed))
        #expect(answer.text == #"{"self":"\#(base)/api.example.com/me"}"#)
        #expect(answer.headers.first(named: "Content-Encoding") == nil)
        #expect(answer.headers.first(named: "Content-Length") == String(answer.body.count))
    }

    @Test("Location and Link headers are rewritten")
    func headers() async throws {
        let (answer, base) = try await served(Response(status: 302, headers: [
            HeaderField("Location", "https://api.example.com/v2/page"),
            HeaderField("Link", #"<https://api.example.com/page?p=3>; rel="next", <https://other.com/x>; rel="help""#),
        ]))
        #expect(answer.status == 302)
        #expect(answer.headers.first(named: "Location") == "\(base)/api.example.com/v2/page")
        #expect(answer.headers.first(named: "Link") == #"<\#(base)/api.example.com/page?p=3>; rel="next", <https://other.com/x>; rel="help""#)
    }

    @Test("The cassette keeps the upstream's bytes when recording with rewriting on")
    func cassetteKeepsUpstreamBytes() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        let upstream = try await TestUpstream { _ in
            Response(headers: [HeaderField("Content-Type", "text/html")], body: "<a href=\"http://127.0.0.1/x\">x</a>")
        }
        let ownURL = upstream.origin + "/next"
        let rewritingUpstream = try await TestUpstream { _ in
            Response(headers: [HeaderField("Content-Type", "text/html")], body: "<a href=\"\(ownURL)\">next</a>")
        }
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin, rewritingUpstream.origin])
        configuration.rewritesURLs = true
        let server = try await TonearmServer.start(configuration)
        let answer = try await TestClient.send(server.baseURL(for: rewritingUpstream.authority).absoluteString + "/")
        try await server.stop()
        try await upstream.stop()
        try await rewritingUpstream.stop()
        #expect(answer.text == "<a href=\"\(server.baseURL.absoluteString)/\(upstream.authority)/next\">next</a>")
        let recorded = try CassetteFile.load(cassette).cassette.tracks.first?.response?.body
        #expect(recorded == Array("<a href=\"\(ownURL)\">next</a>".utf8))
    }
}

/// `bytes` compressed by the system's gzip.
func gzipped(_ bytes: [UInt8]) async throws -> [UInt8] {
    try await blocking { try ProcessRun.runBlocking("/bin/gzip", ["-c"], environment: nil, input: Data(bytes)).outputBytes }
}
