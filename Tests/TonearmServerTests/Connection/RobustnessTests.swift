import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("Server: hostile and heavy traffic")
struct RobustnessTests {
    private func stubServer(maximumBodySize: Int = 1024, idleTimeout: Duration = .seconds(60)) async throws -> TonearmServer {
        let folder = try TemporaryFolder()
        let rules = folder.file("rules.json")
        try Data(#"[{"path": "^/ping$", "body": "pong"}]"#.utf8).write(to: rules)
        var configuration = quietConfiguration()
        configuration.rules = [rules]
        configuration.limits.maximumBodySize = maximumBodySize
        configuration.limits.idleTimeout = idleTimeout
        return try await TonearmServer.start(configuration)
    }

    /// The server still answers a normal request.
    private func stillServes(_ server: TonearmServer) async throws {
        let response = try await TestClient.send(server.baseURL.absoluteString + "/ping")
        #expect(response.text == "pong")
    }

    @Test("Garbage bytes get a 400 and the server keeps serving")
    func garbage() async throws {
        let server = try await stubServer()
        let connection = try RawConnection(port: server.port)
        connection.send([0x16, 0x03, 0x01, 0x00, 0xFF, 0x00, 0x0D, 0x0A, 0x0D, 0x0A])
        let answer = try await connection.readToEnd()
        try await stillServes(server)
        try await server.stop()
        #expect(answer.hasPrefix("HTTP/1.1 400"))
    }

    @Test("Oversized headers get a 431 and the server keeps serving")
    func oversizedHeaders() async throws {
        let server = try await stubServer()
        let connection = try RawConnection(port: server.port)
        connection.send("GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n")
        let answer = try await connection.readToEnd()
        try await stillServes(server)
        try await server.stop()
        #expect(answer.hasPrefix("HTTP/1.1 431"))
    }

    @Test("A body over the limit gets a 413, declared or chunked, and the server keeps serving")
    func oversizedBody() async throws {
        let server = try await stubServer(maximumBodySize: 1024)
        let declared = try await TestClient.send(server.baseURL.absoluteString + "/ping", method: "POST", body: String(repeating: "x", count: 4096))
        let connection = try RawConnection(port: server.port)
        let chunk = String(repeating: "y", count: 800)
        connection.send("POST /ping HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        let chunked = try await connection.readToEnd()
        try await stillServes(server)
        try await server.stop()
        #expect(declared.status == 413)
        #expect(chunked.hasPrefix("HTTP/1.1 413"))
    }

    @Test("A client that disconnects mid-body does not disturb the server")
    func disconnectMidBody() async throws {
        let server = try await stubServer()
        let connection = try RawConnection(port: server.port)
        connection.send("POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nonly part")
        connection.closeWrite()
        _ = try await connection.readToEnd()
        try await stillServes(server)
        try await server.stop()
        #expect(server.journal.count == 1)
    }

    @Test("Idle connections are closed after the idle timeout")
    func idleTimeout() async throws {
        let server = try await stubServer(idleTimeout: .milliseconds(300))
        let connection = try RawConnection(port: server.port)
        let (answer, closed) = try await connection.readUntilClosed()
        try await server.stop()
        // The server closed it (the client's own 60 s read timeout did not expire first), saying nothing.
        #expect(closed)
        #expect(answer.isEmpty)
    }

    /// Server and clients run in processes of their own: 1,000 connections opened in a burst inside the
    /// test runner would be 2,000 descriptors with the server's side, on top of every parallel test's
    /// (they once crashed Foundation's `Process.run()`, which ``ChildProcess`` replaced).
    @Test("1,000 concurrent connections are all answered")
    func thousandConnections() async throws {
        let folder = try TemporaryFolder()
        let rules = folder.file("rules.json")
        try Data(#"[{"path": "^/ping$", "body": "pong"}]"#.utf8).write(to: rules)
        let server = try await ServeProcess(["--rules", rules.path])
        let script = packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/many_connections.py")
        // All 1,000 are open at once before any is read.
        let run = try await ProcessRun.run("/usr/bin/env", ["python3", script.path, String(server.port), "1000"], environment: nil)
        let ended = try await server.stop()
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1000")
        #expect(ended.status == 0)
    }

    @Test("uniquePlay over HTTP: 64 concurrent clients, each track plays exactly once")
    func uniquePlayConcurrent() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("queue.json")
        let tracks = (0..<64).map { index in
            Track(request: Request(url: "https://api.example.com/ticket"), response: Response(body: "ticket \(index)"))
        }
        try CassetteFile.save(Cassette(tracks: tracks), to: cassette, format: .native)
        var configuration = quietConfiguration(cassette: cassette)
        configuration.strategy = .uniquePlay
        let server = try await TonearmServer.start(configuration)
        let url = server.baseURL(for: "api.example.com").absoluteString + "/ticket"
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<64 { group.addTask { try await TestClient.send(url).text } }
            var bodies: [String] = []
            for try await body in group { bodies.append(body) }
            return bodies
        }
        let extra = try await TestClient.send(url)
        try await server.stop()
        #expect(Set(bodies) == Set((0..<64).map { "ticket \($0)" }))
        #expect(extra.status == 404)
        #expect(extra.headers.first(named: "Tonearm-Miss") == "exhausted")
    }
}
