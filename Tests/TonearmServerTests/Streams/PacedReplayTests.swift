import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// A recorded stream replays as it came: each part no earlier than its offset (scaled as asked), or all
/// at once with pacing off. Times are only ever checked as lower bounds from when the request was sent,
/// which a loaded machine cannot break (a part is never written early; it may arrive late).
@Suite("Streams: paced replay")
struct PacedReplayTests {
    /// Three Server-Sent Events, as a chat API streams tokens: at 0, 300 and 600 ms after the head.
    static let events = [
        "event: delta\ndata: {\"text\":\"Hel\"}\n\n", "event: delta\ndata: {\"text\":\"lo\"}\n\n", "data: [DONE]\n\n",
    ]

    static func streamTrack(lastAt: Duration = .milliseconds(600)) -> Track {
        let body = Array(events.joined().utf8)
        let pacing = BodyPacing(parts: [
            .init(offset: .zero, byteCount: events[0].utf8.count),
            .init(offset: lastAt / 2, byteCount: events[1].utf8.count),
            .init(offset: lastAt, byteCount: events[2].utf8.count),
        ])
        return Track(
            request: Request(method: "POST", url: "https://api.example.com/v1/chat", body: #"{"stream":true}"#),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: body), pacing: pacing)
    }

    private func serve(_ track: Track, pacing: StreamPacing, in folder: TemporaryFolder) async throws -> TonearmServer {
        let cassette = try savedCassette([track], in: folder)
        var configuration = quietConfiguration(cassette: cassette)
        configuration.streamPacing = pacing
        return try await TonearmServer.start(configuration)
    }

    private func post(to server: TonearmServer) throws -> (RawConnection, ContinuousClock.Instant) {
        let connection = try RawConnection(port: server.port)
        let sent = ContinuousClock.now
        connection.send("POST /api.example.com/v1/chat HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{\"stream\":true}")
        return (connection, sent)
    }

    /// When each of `markers` had arrived, after `sent`.
    private func arrivals(of markers: [String], in reads: [(arrived: ContinuousClock.Instant, text: String)], after sent: ContinuousClock.Instant) -> [Duration?] {
        markers.map { marker in
            var seen = ""
            for read in reads {
                seen += read.text
                if seen.contains(marker) { return read.arrived - sent }
            }
            return nil
        }
    }

    @Test("As recorded: the head states the whole length, each event arrives no earlier than its offset, the body is the recording's bytes, and the journal shows it whole")
    func asRecorded() async throws {
        let folder = try TemporaryFolder()
        let server = try await serve(Self.streamTrack(), pacing: .recorded, in: folder)
        let (connection, sent) = try post(to: server)
        let reads = try await connection.timedReads(until: "[DONE]\n\n")
        try await server.stop()

        let text = reads.map(\.text).joined()
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.contains("Content-Length: \(Self.events.joined().utf8.count)\r\n"))
        #expect(text.hasSuffix("\r\n\r\n" + Self.events.joined()))
        let times = arrivals(of: ["Hel", "lo\"", "[DONE]"], in: reads, after: sent)
        let second = try #require(times[1]), third = try #require(times[2])
        #expect(second >= .milliseconds(300), "the second event came \(second) after the request")
        #expect(third >= .milliseconds(600), "the last event came \(third) after the request")
        #expect(server.journal.last?.response?.body == Array(Self.events.joined().utf8))
        #expect(server.journal.last?.source.kind == "track")
    }

    @Test("Scaled by 0.5: the last event, recorded at 1.2 s, comes no earlier than 0.6 s")
    func scaled() async throws {
        let folder = try TemporaryFolder()
        let server = try await serve(Self.streamTrack(lastAt: .milliseconds(1200)), pacing: try #require(StreamPacing.scaled(0.5)), in: folder)
        let (connection, sent) = try post(to: server)
        let reads = try await connection.timedReads(until: "[DONE]\n\n")
        try await server.stop()
        let last = try #require(arrivals(of: ["[DONE]"], in: reads, after: sent)[0])
        #expect(last >= .milliseconds(600))
        #expect(reads.map(\.text).joined().hasSuffix(Self.events.joined()))
    }

    @Test("Pacing off: a stream recorded over 10 minutes is answered whole at once, and the connection serves the next request")
    func off() async throws {
        let folder = try TemporaryFolder()
        let server = try await serve(Self.streamTrack(lastAt: .seconds(600)), pacing: .immediate, in: folder)
        let (connection, _) = try post(to: server)
        // Were it paced, the read would wait ten minutes; the test's limit is far shorter.
        let first = try await connection.read(until: "[DONE]\n\n")
        connection.send("POST /api.example.com/v1/chat HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{\"stream\":true}")
        let second = try await connection.read(until: "[DONE]\n\n")
        try await server.stop()
        #expect(first.hasSuffix(Self.events.joined()))
        #expect(second.hasSuffix(Self.events.joined()))
    }

    @Test("tonearm serve --stream-pacing: off replays a 10-minute stream at once to curl -N; a value that is not a pacing is refused, naming the option")
    func commandLine() async throws {
        let folder = try TemporaryFolder()
        let cassette = try savedCassette([Self.streamTrack(lastAt: .seconds(600))], in: folder)
        let server = try await ServeProcess(["--cassette", cassette.path, "--stream-pacing", "off"])
        let curl = try await ProcessRun.run("/usr/bin/curl", [
            "-sN", "--max-time", "20", "-H", "Content-Type:", "--data-binary", #"{"stream":true}"#, server.url + "/api.example.com/v1/chat",
        ])
        _ = try await server.stop()
        #expect(curl.status == 0)
        #expect(curl.output == Self.events.joined())

        let tonearm = try #require(builtExecutable("tonearm"))
        let refused = try await ProcessRun.run(tonearm.path, ["serve", "--stream-pacing", "sometimes"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("--stream-pacing sometimes"))
    }

    @Test(
        "Python httpx reading the stream line by line (client.stream, iter_lines) gets each event no earlier than its offset",
        .enabled(if: WebSocketClient.available || WebSocketClient.required, Comment(rawValue: WebSocketClient.missingMessage)))
    func httpxReadsLineByLine() async throws {
        let folder = try TemporaryFolder()
        let server = try await serve(Self.streamTrack(), pacing: .recorded, in: folder)
        let run = try await ProcessRun.run(
            try #require(WebSocketClient.python),
            [packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/httpx_stream.py").path,
             server.baseURL.absoluteString + "/api.example.com/v1/chat", #"{"stream":true}"#],
            environment: clientEnvironment([:]))
        try await server.stop()
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(lines.compactMap { $0["line"] as? String } == ["event: delta", #"data: {"text":"Hel"}"#, "event: delta", #"data: {"text":"lo"}"#, "data: [DONE]"])
        let doneAt = try #require(lines.last?["at"] as? Double)
        let firstAt = try #require(lines.first?["at"] as? Double)
        #expect(doneAt >= 0.599, "\(lines)")
        #expect(firstAt < doneAt, "the first event is read before the last arrives: \(lines)")
    }
}

