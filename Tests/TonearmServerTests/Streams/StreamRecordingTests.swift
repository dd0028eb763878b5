import Foundation
import Testing
import Tonearm
import TonearmCassettes
@testable import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// Recording a stream through the server: a real Server-Sent Events upstream (Python's http.server,
/// chunked), its events relayed to the client as they come (never buffered whole), recorded with their
/// times, and replayed with the upstream gone.
@Suite("Streams: recording through the server")
struct StreamRecordingTests {
    @Test("An SSE answer is relayed event by event while it is recorded (the first event reaches the client before the upstream sends the rest), saved with its events' times, and replayed with the upstream gone, paced")
    func recordThenReplay() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("chat.json")
        let upstream = try await PythonServer("sse_upstream.py")
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin])
        configuration.limits.upstreamTimeout = .seconds(60)
        let recorder = try await TonearmServer.start(configuration)

        let connection = try RawConnection(port: recorder.port)
        connection.send("GET /127.0.0.1:\(upstream.port)/chat HTTP/1.1\r\nHost: x\r\n\r\n")
        // The upstream holds the rest until released: the first event can only be here if it was relayed.
        let first = try await connection.read(until: #"{"text":"Hel"}"#)
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(first.lowercased().contains("content-type: text/event-stream"))
        #expect(first.lowercased().contains("transfer-encoding: chunked"))
        // A gap the recording must keep: the upstream sends the second event only after it, and the head
        // reached the server before the first event reached the client, so the second event's time after
        // the head is at least this long, however loaded the machine (its later gaps are not: a starved
        // server reads two events that were sent apart together).
        try await Task.sleep(for: .milliseconds(400))
        let release = try await TestClient.send(upstream.origin + "/release")
        #expect(release.status == 200)
        let rest = try await connection.read(until: "0\r\n\r\n")
        #expect(rest.contains("data: [DONE]"))
        try await recorder.stop()
        try await upstream.stop()

        let text = try String(contentsOf: cassette, encoding: .utf8)
        #expect(text.contains(#""events""#), "the SSE body is kept as its events")
        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.response?.body == Array(#"event: delta\#ndata: {"text":"Hel"}\#n\#nevent: delta\#ndata: {"text":"lo"}\#n\#ndata: [DONE]\#n\#n"#.utf8))
        let offsets = try #require(track.pacing?.parts.map(\.offset))
        #expect(offsets.count == 3)
        #expect(offsets[1] >= .milliseconds(400), "\(offsets)")
        #expect(offsets[2] >= offsets[1])
        // The recorder's journal listed the stream by its head as it began, then whole as recorded.
        let journaled = try #require(recorder.journal.first { $0.request.url.hasSuffix("/chat") })
        #expect(journaled.response?.body == track.response?.body)
        // The cassette keeps times to the millisecond, the journal as they were.
        #expect(journaled.pacing?.parts.map(\.byteCount) == track.pacing?.parts.map(\.byteCount))
        for (kept, saved) in zip(journaled.pacing?.parts ?? [], track.pacing?.parts ?? []) {
            #expect(kept.offset - saved.offset < .milliseconds(1) && saved.offset - kept.offset < .milliseconds(1), "\(kept) \(saved)")
        }

        // Replayed with the upstream gone: the same events, the last no earlier than its recorded time.
        let replayer = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        let again = try RawConnection(port: replayer.port)
        let sent = ContinuousClock.now
        again.send("GET /127.0.0.1:\(upstream.port)/chat HTTP/1.1\r\nHost: x\r\n\r\n")
        let reads = try await again.timedReads(until: "data: [DONE]\n\n")
        try await replayer.stop()
        let whole = reads.map(\.text).joined()
        #expect(whole.hasSuffix(String(decoding: track.response?.body ?? [], as: UTF8.self)))
        let done = try #require(reads.first { $0.text.contains("[DONE]") })
        #expect(done.arrived - sent >= offsets[2] - .milliseconds(1))
        #expect(replayer.journal.first?.pacing == track.pacing, "a paced replay is journaled with its parts' times")
    }

    @Test("A client that leaves a relayed stream ends the upstream exchange, and nothing half-recorded is saved")
    func clientLeavesStopsUpstream() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("forever.json")
        let upstream = try await PythonServer("sse_upstream.py")
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin])
        configuration.limits.upstreamTimeout = .seconds(60)
        let server = try await TonearmServer.start(configuration)

        var connection: RawConnection? = try RawConnection(port: server.port)
        connection?.send("GET /127.0.0.1:\(upstream.port)/forever HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await connection?.read(until: "data: tick 1\n\n")
        connection = nil  // closes the socket
        var closed = ""
        for _ in 0..<100 where closed != "1" {
            try await Task.sleep(for: .milliseconds(100))
            closed = try await TestClient.send(upstream.origin + "/closed").text
        }
        try await server.stop()
        try await upstream.stop()
        #expect(closed == "1", "the upstream's stream was still being read after its client left")
        let saved = FileManager.default.fileExists(atPath: cassette.path) ? try CassetteFile.load(cassette).cassette.tracks.count : 0
        #expect(saved == 0)
    }

    @Test("Stopping the server during a relayed stream records it as far as it came, marked as cut, and ends the client's body cleanly")
    func stoppingKeepsTheStreamSoFar() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("feed.json")
        let upstream = try await PythonServer("sse_upstream.py")
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin])
        configuration.limits.upstreamTimeout = .seconds(60)
        let server = try await TonearmServer.start(configuration)

        // A live feed never ends by itself: its recording ends when the test stops the server.
        let connection = try RawConnection(port: server.port)
        connection.send("GET /127.0.0.1:\(upstream.port)/forever HTTP/1.1\r\nHost: x\r\n\r\n")
        let start = try await connection.read(until: "data: tick 2\n\n")
        try await server.stop()
        // The body's end (the last chunk), not a connection cut mid-body.
        let rest = try await connection.read(until: "0\r\n\r\n")
        try await upstream.stop()
        #expect((start + rest).hasSuffix("\n\n\r\n0\r\n\r\n"), "\(start + rest)")

        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first, "the stream was not saved")
        let body = String(decoding: track.response?.body ?? [], as: UTF8.self)
        #expect(body.hasPrefix("data: tick 0\n\ndata: tick 1\n\ndata: tick 2\n\n"), "\(body)")
        #expect(track.response?.headers.first(named: StreamCapture.cutField) == "tonearm stopped while the stream was being recorded")
        #expect((track.pacing?.parts.count ?? 0) >= 3)
    }

    @Test("What keeps its times: Server-Sent Events in parts always; another body only when it took 100 ms or more (a chunked JSON answer in parts milliseconds apart is an ordinary answer)")
    func whatKeepsPacing() {
        let sse = Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: "data: a\n\ndata: b\n\n")
        let json = Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: "[1,2]")
        let quick = BodyPacing(parts: [.init(offset: .zero, byteCount: 3), .init(offset: .milliseconds(3), byteCount: 2)])
        let slow = BodyPacing(parts: [.init(offset: .zero, byteCount: 3), .init(offset: .milliseconds(150), byteCount: 2)])
        #expect(StreamCapture.keepsPacing(quick, of: sse))
        #expect(!StreamCapture.keepsPacing(quick, of: json))
        #expect(StreamCapture.keepsPacing(slow, of: json))
        #expect(!StreamCapture.keepsPacing(BodyPacing(parts: [.init(offset: .zero, byteCount: 5)]), of: sse))
    }
}
