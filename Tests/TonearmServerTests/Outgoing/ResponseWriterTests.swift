import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing
import Tonearm
@testable import TonearmServer

/// The bytes of every body kind and ending, as the one writer puts them on the wire: golden tests on an
/// `EmbeddedChannel`, whose clock the dribble's pauses run on (no test waits for wall-clock time).
@Suite("Server: the response writer's bytes")
struct ResponseWriterTests {
    private static let text = [HeaderField("Content-Type", "text/plain")]
    private static let get11 = RequestFraming(version: .http1_1, method: .GET)

    /// A body in `chunks` parts over `milliseconds` (as WireMock's `chunkedDribbleDelay` gives it).
    private static func dribble(chunks: Int, milliseconds: Int) -> Dribble {
        Dribble(pieces: chunks, total: .milliseconds(milliseconds))
    }

    /// A channel with the writer alone, active.
    private func channel(log: @escaping @Sendable (String) -> Void = { _ in }) throws -> EmbeddedChannel {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: ResponseWriter(log: log, wakeups: PacedWakeups(group: loop)), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40000)).wait()
        return channel
    }

    /// Everything written so far, as text.
    private func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let part = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = part else { continue }
            text += String(buffer: buffer)
        }
        return text
    }

    /// The bytes `response` is written as to `request`, and whether the channel is still open after.
    private func write(_ response: OutgoingResponse, to request: RequestFraming = get11) throws -> (text: String, open: Bool) {
        let channel = try channel()
        try channel.writeOutbound(ResponseWrite(response: response, request: request))
        channel.embeddedEventLoop.run()
        return (try written(channel), channel.isActive)
    }

    @Test("A whole body: hop-by-hop fields dropped, Content-Length the body's, kept alive; HTTP/1.0 says keep-alive")
    func wholeBody() throws {
        let response = Response(
            status: 200,
            headers: Self.text + [HeaderField("Transfer-Encoding", "chunked"), HeaderField("Keep-Alive", "timeout=5"), HeaderField("Content-Length", "99")],
            body: "hello")
        #expect(try write(OutgoingResponse(response)) == ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello", true))
        #expect(
            try write(OutgoingResponse(response), to: RequestFraming(version: .http1_0, method: .GET))
                == ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello", true))
    }

    @Test("A chunked whole body (a WireMock stub's answer without Content-Length): one chunk and the last with the head, in one write; empty, the last chunk alone; HTTP/1.0 gets the length; 204 none")
    func chunkedWholeBody() throws {
        let response = Response(status: 200, headers: Self.text + [HeaderField("Content-Length", "99")], body: "hello")
        let channel = try channel()
        try channel.writeOutbound(ResponseWrite(response: OutgoingResponse(response, chunked: true), request: Self.get11))
        let first = try #require(try channel.readOutbound(as: IOData.self))
        guard case .byteBuffer(let buffer) = first else { Issue.record("not a buffer"); return }
        #expect(String(buffer: buffer) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        #expect(try channel.readOutbound(as: IOData.self) == nil, "the whole answer is one write")
        #expect(try write(OutgoingResponse(Response(status: 200), chunked: true)) == ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", true))
        #expect(
            try write(OutgoingResponse(response, chunked: true), to: RequestFraming(version: .http1_0, method: .GET))
                == ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello", true))
        #expect(try write(OutgoingResponse(Response(status: 204), chunked: true)).text == "HTTP/1.1 204 No Content\r\n\r\n")
    }

    @Test("HEAD states the recorded length (else the body's) and sends no body; 204, 304 and an answer to CONNECT state none")
    func lengthsWithoutBodies() throws {
        let head = RequestFraming(version: .http1_1, method: .HEAD)
        let recorded = Response(status: 200, headers: Self.text + [HeaderField("Content-Length", "999")])
        #expect(try write(OutgoingResponse(recorded), to: head).text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 999\r\n\r\n")
        #expect(try write(OutgoingResponse(Response(status: 200, body: "abc")), to: head).text == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n")
        #expect(try write(OutgoingResponse(Response(status: 204, headers: Self.text, body: "x"))).text == "HTTP/1.1 204 No Content\r\nContent-Type: text/plain\r\n\r\n")
        #expect(try write(OutgoingResponse(Response(status: 304))).text == "HTTP/1.1 304 Not Modified\r\n\r\n")
        let connect = RequestFraming(version: .http1_1, method: .CONNECT)
        #expect(try write(OutgoingResponse(Response(status: 403, body: "no")), to: connect).text == "HTTP/1.1 403 Forbidden\r\n\r\n")
    }

    @Test("An answer's own reason phrase is its status line's")
    func reasonPhrase() throws {
        #expect(try write(OutgoingResponse(Response(status: 418), reasonPhrase: "Short and stout")).text == "HTTP/1.1 418 Short and stout\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("A closing answer says Connection: close, and the connection closes once it is written")
    func closingAnswer() throws {
        let channel = try channel()
        try channel.writeOutbound(ResponseWrite(response: OutgoingResponse(Response(status: 503, body: "bye"), ending: .close), request: Self.get11))
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbye")
        #expect(!channel.isActive)
    }

    @Test("100 Continue and a tunnel's 200 carry no framing; the tunnel's connection stays open")
    func interimAndTunnel() throws {
        #expect(try write(.continue) == ("HTTP/1.1 100 Continue\r\n\r\n", true))
        #expect(try write(.continue, to: RequestFraming(version: .http1_0, method: .POST)).text == "HTTP/1.0 100 Continue\r\n\r\n")
        let host = try #require(UpstreamHost("api.example.com"))
        #expect(
            try write(.tunnel(to: host), to: RequestFraming(version: .http1_0, method: .CONNECT))
                == ("HTTP/1.0 200 Connection Established\r\n\r\n", true))
    }

    @Test("Faults: a close writes nothing, random data and a malformed chunk are written then closed, a reset closes")
    func faults() throws {
        #expect(try write(.fault(.close)) == ("", false))
        #expect(try write(.fault(.garbageThenClose)) == (ResponseEncoding.garbage, false))
        #expect(
            try write(.fault(.malformedChunk), to: RequestFraming(version: .http1_0, method: .GET))
                == ("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum\r\n", false))
        // An EmbeddedChannel has no socket to set SO_LINGER on: the reset is a close there.
        #expect(try write(.fault(.reset)) == ("", false))
    }

    @Test("A field HTTP cannot carry is not sent: the client is answered 500 naming it, the connection closes, the server logs it")
    func invalidField() throws {
        let logged = LoggedLines()
        let channel = try channel(log: { line in logged.lines.withLock { $0.append(line) } })
        let response = Response(status: 200, headers: [HeaderField("X-Bad", "one\r\nInjected: yes"), HeaderField("Bad Name", "v")], body: "x")
        try channel.writeOutbound(ResponseWrite(response: OutgoingResponse(response), request: Self.get11))
        channel.embeddedEventLoop.run()
        let text = try written(channel)
        #expect(text.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(text.contains("'X-Bad', 'Bad Name'"))
        #expect(!text.contains("Injected: yes\r\n"))
        #expect(!channel.isActive)
        #expect(logged.lines.withLock { $0.count } == 1)
    }

    @Test("A dribbled body: the head at once, each part after its pause on the loop's clock, the write complete after the last")
    func dribbled() throws {
        let channel = try channel()
        let dribble = Self.dribble(chunks: 3, milliseconds: 300)
        let response = OutgoingResponse(
            message: .parts(OutgoingResponse.Head(status: 200, fields: Self.text), Self.dribbled("abcdefg", dribble), keep: nil),
            ending: .keepAlive)
        let done = channel.eventLoop.makePromise(of: Void.self)
        let finished = SharedFlag()
        done.futureResult.whenSuccess { finished.set() }
        channel.write(ResponseWrite(response: response, request: Self.get11), promise: done)
        channel.flush()
        #expect(try written(channel) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 7\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(99))
        #expect(try written(channel) == "")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try written(channel) == "abc")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        #expect(try written(channel) == "def")
        #expect(!finished.isSet)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        #expect(try written(channel) == "g")
        #expect(finished.isSet)
        #expect(channel.isActive)
    }

    @Test("A dribbled body that closes closes after its last part; one whose connection closes meanwhile stops")
    func dribbledEndings() throws {
        let dribble = Self.dribble(chunks: 2, milliseconds: 100)
        // A stream is one producer: each write gets its own.
        let response = {
            OutgoingResponse(message: .parts(OutgoingResponse.Head(status: 200), Self.dribbled("abcd", dribble), keep: nil), ending: .close)
        }
        let closing = try channel()
        // Not `writeOutbound`, which waits on the write's future: a dribbled write completes only on the loop's clock.
        closing.write(ResponseWrite(response: response(), request: Self.get11), promise: nil)
        closing.flush()
        closing.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        #expect(try written(closing) == "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd")
        #expect(!closing.isActive)

        let leaving = try channel()
        let done = leaving.eventLoop.makePromise(of: Void.self)
        let failed = SharedFlag()
        done.futureResult.whenFailure { _ in failed.set() }
        leaving.write(ResponseWrite(response: response(), request: Self.get11), promise: done)
        leaving.flush()
        leaving.close(promise: nil)
        leaving.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        #expect(failed.isSet)
    }

    /// `text` dribbled as a mapping's `chunkedDribbleDelay` says: a paced stream of known length.
    private static func dribbled(_ text: String, _ dribble: Dribble) -> OutgoingResponse.Body {
        .stream(.paced(Array(text.utf8), AnswerPacing.dribble(dribble).parts(forBodyCount: text.utf8.count)))
    }

    @Test("A recorded stream replays paced: the head states the length, each part is written at its offset from the head (not before), parts due together go in one write, and the write completes after the last")
    func recordedPacing() throws {
        let channel = try channel()
        let pacing = BodyPacing(parts: [
            .init(offset: .milliseconds(0), byteCount: 2), .init(offset: .milliseconds(250), byteCount: 3),
            .init(offset: .milliseconds(250), byteCount: 1), .init(offset: .milliseconds(400), byteCount: 4),
        ])
        let response = OutgoingResponse(
            message: .parts(OutgoingResponse.Head(status: 200, fields: [HeaderField("Content-Type", "text/event-stream")]),
                .stream(.paced(Array("abcdefghij".utf8), pacing)), keep: nil),
            ending: .keepAlive)
        let done = channel.eventLoop.makePromise(of: Void.self)
        let finished = SharedFlag()
        done.futureResult.whenSuccess { finished.set() }
        channel.write(ResponseWrite(response: response, request: Self.get11), promise: done)
        channel.flush()
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 10\r\n\r\nab")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(249))
        #expect(try written(channel) == "")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try written(channel) == "cdef")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(149))
        #expect(try written(channel) == "")
        #expect(!finished.isSet)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try written(channel) == "ghij")
        #expect(finished.isSet)
        #expect(channel.isActive)
    }

    @Test("A paced stream to HEAD is the head alone; to HTTP/1.0 it keeps its Content-Length and closes after the last part")
    func recordedPacingFramings() throws {
        let pacing = BodyPacing(parts: [.init(offset: .milliseconds(10), byteCount: 2), .init(offset: .milliseconds(20), byteCount: 2)])
        let response = {
            OutgoingResponse(message: .parts(OutgoingResponse.Head(status: 200), .stream(.paced(Array("abcd".utf8), pacing)), keep: nil), ending: .close)
        }
        let head = try channel()
        head.write(ResponseWrite(response: response(), request: RequestFraming(version: .http1_1, method: .HEAD)), promise: nil)
        head.flush()
        #expect(try written(head) == "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\n")

        let old = try channel()
        old.write(ResponseWrite(response: response(), request: RequestFraming(version: .http1_0, method: .GET)), promise: nil)
        old.flush()
        old.embeddedEventLoop.advanceTime(by: .milliseconds(20))
        #expect(try written(old) == "HTTP/1.0 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nabcd")
        #expect(!old.isActive)
    }

    @Test("A replayed answer kept encoded is written as kept to the common request, framed anew from its track for HEAD, HTTP/1.0 and a close")
    func keptAnswer() throws {
        let track = Track(request: Request(url: "https://api.example.com/a"), response: Response(status: 200, headers: Self.text, body: "kept"))
        let engine = ReplayEngine(tracks: [track], strategy: .repeat)
        guard case .hit(let hit) = engine.match(Request(url: "https://api.example.com/a")) else {
            Issue.record("the track did not answer")
            return
        }
        let answers = EncodedResponseCache(trackCount: 1, ruleCount: 0)
        let source = JournalEntry.Source(kind: .track, detail: "track #0")
        let slot = try #require(answers.slot(for: hit, delay: nil, source: source))
        // The first answer is encoded from its parts and kept by its slot.
        let first = try write(OutgoingResponse(Response(status: 200, headers: Self.text, body: "kept"), keep: slot))
        let expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nkept"
        #expect(first == (expected, true))
        let kept = try #require(answers.kept(for: hit.source))
        #expect(String(buffer: kept.bytes) == expected)
        #expect(try write(OutgoingResponse(message: .kept(kept), ending: .keepAlive)) == (expected, true))
        #expect(
            try write(OutgoingResponse(message: .kept(kept), ending: .keepAlive), to: RequestFraming(version: .http1_1, method: .HEAD)).text
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\n")
        #expect(
            try write(OutgoingResponse(message: .kept(kept), ending: .keepAlive), to: RequestFraming(version: .http1_0, method: .GET)).text
                == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\nkept")
        #expect(
            try write(OutgoingResponse(message: .kept(kept), ending: .close))
                == ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nConnection: close\r\n\r\nkept", false))
        // What is kept is only the common request's answer: a HEAD through the slot keeps nothing new.
        let other = EncodedResponseCache(trackCount: 1, ruleCount: 0)
        let otherSlot = try #require(other.slot(for: hit, delay: nil, source: source))
        _ = try write(OutgoingResponse(Response(status: 200, body: "kept"), keep: otherSlot), to: RequestFraming(version: .http1_1, method: .HEAD))
        #expect(other.kept(for: hit.source) == nil)
    }

    /// An answer whose body `steps` produce, in order.
    private static func streamed(_ steps: [ScriptedStream.Step], ending: OutgoingResponse.Ending = .keepAlive) -> OutgoingResponse {
        OutgoingResponse(
            message: .parts(
                OutgoingResponse.Head(status: 200, fields: [HeaderField("Content-Type", "text/event-stream")]),
                .stream(BodyStream(ScriptedStream(steps))), keep: nil),
            ending: ending)
    }

    @Test("A stream: the head states no length and says chunked, each part a chunk when its source gives it, the last chunk ends it and the connection stays")
    func streamChunked() throws {
        let channel = try channel()
        let response = Self.streamed([.write("data: 1\n\n"), .waitMilliseconds(100), .write("data: 2\n\n"), .end])
        let done = channel.eventLoop.makePromise(of: Void.self)
        let finished = SharedFlag()
        done.futureResult.whenSuccess { finished.set() }
        channel.write(ResponseWrite(response: response, request: Self.get11), promise: done)
        channel.flush()
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n9\r\ndata: 1\n\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(99))
        #expect(try written(channel) == "")
        #expect(!finished.isSet)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try written(channel) == "9\r\ndata: 2\n\n\r\n0\r\n\r\n")
        #expect(finished.isSet)
        #expect(channel.isActive)
    }

    @Test("A stream to HTTP/1.0 has no chunks: the body ends when the connection closes; a HEAD gets the head alone")
    func streamWithoutChunks() throws {
        let channel = try channel()
        let response = Self.streamed([.write("a"), .write("b"), .end])
        channel.write(ResponseWrite(response: response, request: RequestFraming(version: .http1_0, method: .GET)), promise: nil)
        channel.flush()
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nab")
        #expect(!channel.isActive)

        let head = try write(
            Self.streamed([.write("never")]), to: RequestFraming(version: .http1_1, method: .HEAD))
        #expect(head == ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 0\r\n\r\n", true))
    }

    @Test("A stream whose connection closes stops: its source is not asked again and the write fails")
    func streamStopsWithConnection() throws {
        let channel = try channel()
        let source = ScriptedStream([.write("x"), .waitMilliseconds(50), .write("y"), .end])
        let response = OutgoingResponse(
            message: .parts(OutgoingResponse.Head(status: 200), .stream(BodyStream(source)), keep: nil), ending: .keepAlive)
        let done = channel.eventLoop.makePromise(of: Void.self)
        let failed = SharedFlag()
        done.futureResult.whenFailure { _ in failed.set() }
        channel.write(ResponseWrite(response: response, request: Self.get11), promise: done)
        channel.flush()
        channel.embeddedEventLoop.run()
        channel.close(promise: nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(50))
        #expect(failed.isSet)
        #expect(source.asked == 2)
    }

    @Test("An answer and its request's framing travel through the pipeline without a box (NIOAny holds 24 bytes inline)")
    func writeFitsInline() {
        #expect(MemoryLayout<ResponseWrite>.size <= 24)
    }
}

/// A flag set from a future's callback and read by the test.
private final class SharedFlag: Sendable {
    private let storage = Mutex(false)
    func set() { storage.withLock { $0 = true } }
    var isSet: Bool { storage.withLock { $0 } }
}

/// A stream source that plays a script: bytes, pauses on the loop's clock, the end.
private final class ScriptedStream: BodyStreamSource {
    enum Step: Sendable {
        case write(String)
        case waitMilliseconds(Int64)
        case end
    }

    private let state: Mutex<(steps: [Step], next: Int, asked: Int, waitingUntil: NIODeadline?)>
    init(_ steps: [Step]) {
        state = Mutex((steps, 0, 0, nil))
    }

    /// How many times the writer asked for a step.
    var asked: Int { state.withLock { $0.asked } }

    func next(now: NIODeadline) -> BodyStreamStep {
        state.withLock { state in
            state.asked += 1
            if let until = state.waitingUntil, now < until { return .wait(until: until) }
            state.waitingUntil = nil
            guard state.next < state.steps.count else { return .end }
            let step = state.steps[state.next]
            state.next += 1
            switch step {
            case .write(let text): return .write(Array(text.utf8))
            case .end: return .end
            case .waitMilliseconds(let milliseconds):
                let until = now + .milliseconds(milliseconds)
                state.waitingUntil = until
                return .wait(until: until)
            }
        }
    }
}
