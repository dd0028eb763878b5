import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

@Suite("Server: how a replayed response is written on the connection")
struct ResponseWritingTests {
    /// A replay server over tracks for `GET /a`, `GET /b` and `HEAD /a` whose recorded headers include
    /// hop-by-hop ones.
    private func server() async throws -> TonearmServer {
        let folder = try TemporaryFolder()
        let cassette = folder.file("c.json")
        let headers = [
            HeaderField("Content-Type", "application/json"), HeaderField("Connection", "X-Private, keep-alive"),
            HeaderField("X-Private", "per-hop"), HeaderField("Transfer-Encoding", "chunked"),
            HeaderField("KEEP-ALIVE", "timeout=5"), HeaderField("Content-Length", "999"), HeaderField("X-Kept", "yes"),
        ]
        let tracks = [("GET", "a"), ("GET", "b"), ("HEAD", "a")].map { method, name in
            Track(request: Request(method: method, url: "https://api.example.com/\(name)"),
                  response: Response(status: 200, headers: headers, body: #"{"track":"\#(name)"}"#))
        }
        try CassetteFile.save(Cassette(tracks: tracks), to: cassette, format: .native)
        return try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
    }

    @Test("Pipelined keep-alive requests each get a whole response: hop-by-hop headers dropped, Content-Length the body's")
    func pipelinedResponses() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /api.example.com/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (text, closed) = try await connection.readUntilClosed()
        try await server.stop()
        #expect(closed)
        let responses = text.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(responses.count == 2)
        for (response, name) in zip(responses, ["a", "b"]) {
            let head = response.components(separatedBy: "\r\n\r\n")[0].lowercased()
            let body = #"{"track":"\#(name)"}"#
            #expect(response.hasSuffix("\r\n\r\n" + body))
            #expect(head.contains("content-length: \(body.utf8.count)"))
            #expect(head.contains("x-kept: yes"))
            #expect(head.contains("content-type: application/json"))
            for dropped in ["x-private", "transfer-encoding", "keep-alive:", "content-length: 999"] {
                #expect(!head.contains(dropped), "\(dropped) in \(head)")
            }
        }
        #expect(responses.last?.lowercased().contains("connection: close") == true)
    }

    @Test("A request pipelined behind a delayed one is answered after it, in order")
    func pipelinedBehindDelay() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("delayed.json")
        let tracks = [
            Track(request: Request(url: "https://api.example.com/slow"), response: Response(status: 200, body: "slow"), delay: .milliseconds(300)),
            Track(request: Request(url: "https://api.example.com/fast"), response: Response(status: 200, body: "fast")),
        ]
        try CassetteFile.save(Cassette(tracks: tracks), to: cassette, format: .native)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /api.example.com/slow HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api.example.com/fast HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api.example.com/slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (text, closed) = try await connection.readUntilClosed()
        try await server.stop()
        #expect(closed)
        let bodies = text.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst().map { $0.components(separatedBy: "\r\n\r\n").last ?? "" }
        #expect(bodies == ["slow", "fast", "slow"])
    }

    @Test("HEAD states the recorded length and sends no body; the connection stays usable")
    func headThenGet() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send(
            "HEAD /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /api.example.com/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let text = try await connection.readToEnd()
        try await server.stop()
        let responses = text.components(separatedBy: "HTTP/1.1 200 OK\r\n").dropFirst()
        #expect(responses.count == 2)
        #expect(responses.first?.lowercased().contains("content-length: 999") == true)
        #expect(responses.first?.hasSuffix("\r\n\r\n") == true)
        #expect(responses.last?.hasSuffix(#"{"track":"b"}"#) == true)
    }

    @Test("Pipelined answers of every framing are written byte for byte, in order: GET, HEAD, 204, HTTP/1.0 keep-alive, and the closing one")
    func exactBytesOfMixedAnswers() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("mixed.json")
        let json = [HeaderField("Content-Type", "application/json"), HeaderField("Content-Length", "7")]
        let tracks = [
            Track(request: Request(url: "https://api.example.com/a"), response: Response(status: 200, headers: json, body: #"{"a":1}"#)),
            Track(request: Request(method: "HEAD", url: "https://api.example.com/a"), response: Response(status: 200, headers: json)),
            Track(request: Request(method: "DELETE", url: "https://api.example.com/a"), response: Response(status: 204, headers: json)),
            Track(request: Request(url: "https://api.example.com/gone"), response: Response(status: 410, body: "gone")),
        ]
        try CassetteFile.save(Cassette(tracks: tracks), to: cassette, format: .native)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        let connection = try RawConnection(port: server.port)
        connection.send(
            "GET /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "DELETE /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api.example.com/gone HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"
                + "GET /api.example.com/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (text, closed) = try await connection.readUntilClosed()
        try await server.stop()
        #expect(closed)
        let expected = [
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n",
            "HTTP/1.1 204 No Content\r\nContent-Type: application/json\r\n\r\n",
            "HTTP/1.0 410 Gone\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\ngone",
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{\"a\":1}",
        ]
        #expect(text == expected.joined())
    }
}
