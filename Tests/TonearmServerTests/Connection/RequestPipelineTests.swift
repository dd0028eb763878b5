import NIOCore
import NIOHTTP1
import Testing
import Tonearm
@testable import TonearmServer

/// The request pipeline's decisions, driven without a channel: pipelining, waiting, back-pressure,
/// refusals and how each answer ends a request.
@Suite("Server: the request pipeline")
struct RequestPipelineTests {
    /// The machine behind a reference, so its mutating calls can be written inside `#expect`.
    private final class Pipeline {
        var machine: RequestPipeline
        init(maximumBodySize: Int, tunnelOrigin: UpstreamHost? = nil) {
            machine = RequestPipeline(maximumBodySize: maximumBodySize, tunnelOrigin: tunnelOrigin)
        }
        var isAnswering: Bool { machine.isAnswering }
        func received(_ part: HTTPServerRequestPart, isWritable: Bool) -> RequestPipeline.Action { machine.received(part, isWritable: isWritable) }
        func nextWaiting(isWritable: Bool) -> RequestPipeline.Action { machine.nextWaiting(isWritable: isWritable) }
        func answerReady(ending: OutgoingResponse.Ending, dribbled: Bool, for head: HTTPRequestHead) -> RequestPipeline.Writing {
            machine.answerReady(ending: ending, dribbled: dribbled, for: head)
        }
        func dribbleEnded() -> Bool { machine.dribbleEnded() }
        func shutdownDeadlinePassed() -> Bool { machine.shutdownDeadlinePassed() }
        func parseFailed(status: Int, message: String) -> RequestPipeline.Action { machine.parseFailed(status: status, message: message) }
        func close(after response: Response, version: HTTPVersion) -> RequestPipeline.Action { machine.close(after: response, version: version) }
        func readRequested(isWritable: Bool) -> Bool { machine.readRequested(isWritable: isWritable) }
        func withheldReadMayGo(isWritable: Bool) -> Bool { machine.withheldReadMayGo(isWritable: isWritable) }
    }

    private static func head(
        _ method: HTTPMethod = .GET, _ uri: String = "/a", _ headers: [(String, String)] = [], version: HTTPVersion = .http1_1
    ) -> HTTPRequestHead {
        HTTPRequestHead(version: version, method: method, uri: uri, headers: HTTPHeaders(headers))
    }

    private static func body(_ text: String) -> HTTPServerRequestPart {
        .body(ByteBuffer(string: text))
    }

    /// The request the action asks to be answered, else `nil`.
    private static func answered(_ action: RequestPipeline.Action) -> (uri: String, body: String?)? {
        guard case .answer(let head, let body) = action else { return nil }
        return (head.uri, body.map { String(buffer: $0) })
    }

    private static func isNone(_ action: RequestPipeline.Action) -> Bool {
        if case .none = action { return true }
        return false
    }

    private static func closing(_ action: RequestPipeline.Action) -> (status: Int, body: String, framing: RequestFraming)? {
        guard case .writeClosing(let response, let framing) = action else { return nil }
        return (response.status, String(decoding: response.body, as: UTF8.self), framing)
    }

    @Test("A request is answered when its end arrives, its body collected from every chunk")
    func wholeRequest() {
        let pipeline = Pipeline(maximumBodySize: 100)
        #expect(Self.isNone(pipeline.received(.head(Self.head(.POST)), isWritable: true)))
        #expect(Self.isNone(pipeline.received(Self.body("hel"), isWritable: true)))
        #expect(Self.isNone(pipeline.received(Self.body("lo"), isWritable: true)))
        let action = pipeline.received(.end(nil), isWritable: true)
        #expect(Self.answered(action)?.body == "hello")
        #expect(pipeline.isAnswering)
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.POST)) == .asIs)
        #expect(!pipeline.isAnswering)
    }

    @Test("Requests pipelined behind one answered in a task wait, reads withheld, and are answered in order afterwards")
    func pipelinedBehindTask() {
        let pipeline = Pipeline(maximumBodySize: 100)
        _ = pipeline.received(.head(Self.head(.GET, "/slow")), isWritable: true)
        #expect(Self.answered(pipeline.received(.end(nil), isWritable: true))?.uri == "/slow")
        // The core answers in a task: what arrives meanwhile waits, and the next read is withheld.
        for part: HTTPServerRequestPart in [.head(Self.head(.GET, "/b")), .end(nil), .head(Self.head(.GET, "/c")), .end(nil)] {
            #expect(Self.isNone(pipeline.received(part, isWritable: true)))
        }
        #expect(!pipeline.readRequested(isWritable: true))
        #expect(Self.isNone(pipeline.nextWaiting(isWritable: true)), "nothing is handled while the task answers")
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.GET, "/slow")) == .asIs)
        #expect(Self.answered(pipeline.nextWaiting(isWritable: true))?.uri == "/b")
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.GET, "/b")) == .asIs)
        #expect(!pipeline.withheldReadMayGo(isWritable: true), "/c still waits")
        #expect(Self.answered(pipeline.nextWaiting(isWritable: true))?.uri == "/c")
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.GET, "/c")) == .asIs)
        #expect(Self.isNone(pipeline.nextWaiting(isWritable: true)))
        #expect(pipeline.withheldReadMayGo(isWritable: true), "the read withheld goes once nothing waits")
        #expect(!pipeline.withheldReadMayGo(isWritable: true), "and only once")
    }

    @Test("A client that does not read its answers is not read from: its requests wait until it does")
    func backPressure() {
        let pipeline = Pipeline(maximumBodySize: 100)
        #expect(Self.isNone(pipeline.received(.head(Self.head()), isWritable: false)))
        #expect(Self.isNone(pipeline.received(.end(nil), isWritable: false)))
        #expect(!pipeline.readRequested(isWritable: false))
        #expect(Self.isNone(pipeline.nextWaiting(isWritable: false)))
        #expect(!pipeline.withheldReadMayGo(isWritable: true), "a part still waits")
        #expect(Self.answered(pipeline.nextWaiting(isWritable: true))?.uri == "/a")
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head()) == .asIs)
        #expect(pipeline.withheldReadMayGo(isWritable: true))
        #expect(pipeline.readRequested(isWritable: true))
    }

    @Test("A body declared or sent larger than the limit is answered 413 and closes the connection, framed for its request")
    func bodyTooLarge() throws {
        let declared = Pipeline(maximumBodySize: 10)
        let refusal = try #require(Self.closing(declared.received(.head(Self.head(.POST, "/a", [("Content-Length", "11")])), isWritable: true)))
        #expect(refusal.status == 413)
        #expect(refusal.body.contains("10 bytes"))
        #expect(Self.isNone(declared.received(Self.body("x"), isWritable: true)), "a closing connection reads nothing more")
        #expect(!declared.readRequested(isWritable: true))

        let sent = Pipeline(maximumBodySize: 10)
        _ = sent.received(.head(Self.head(.HEAD, "/a", [("Transfer-Encoding", "chunked")], version: .http1_0)), isWritable: true)
        #expect(Self.isNone(sent.received(Self.body("123456"), isWritable: true)))
        let cut = try #require(Self.closing(sent.received(Self.body("123456"), isWritable: true)))
        #expect(cut.status == 413)
        #expect(cut.framing == RequestFraming(version: .http1_0, method: .HEAD))
    }

    @Test("Expect: 100-continue is answered with the interim head before the body is read")
    func expectContinue() {
        let pipeline = Pipeline(maximumBodySize: 100)
        guard case .writeContinue(let framing) = pipeline.received(
            .head(Self.head(.PUT, "/a", [("Expect", "100-Continue"), ("Content-Length", "2")])), isWritable: true)
        else { Issue.record("no 100 Continue"); return }
        #expect(framing == RequestFraming(version: .http1_1, method: .PUT))
        #expect(Self.isNone(pipeline.received(Self.body("ok"), isWritable: true)))
        #expect(Self.answered(pipeline.received(.end(nil), isWritable: true))?.body == "ok")
    }

    @Test("Unparseable bytes are answered 400 at once, or after the requests read before them")
    func brokenStream() throws {
        let idle = Pipeline(maximumBodySize: 100)
        #expect(try #require(Self.closing(idle.parseFailed(status: 400, message: "bad"))).status == 400)

        let busy = Pipeline(maximumBodySize: 100)
        _ = busy.received(.head(Self.head(.GET, "/first")), isWritable: true)
        _ = busy.received(.end(nil), isWritable: true)
        _ = busy.received(.head(Self.head(.GET, "/second")), isWritable: true)
        _ = busy.received(.end(nil), isWritable: true)
        #expect(Self.isNone(busy.parseFailed(status: 431, message: "too large")))
        #expect(busy.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.GET, "/first")) == .asIs)
        #expect(Self.answered(busy.nextWaiting(isWritable: true))?.uri == "/second")
        #expect(busy.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.GET, "/second")) == .asIs)
        let last = try #require(Self.closing(busy.nextWaiting(isWritable: true)))
        #expect(last.status == 431)
        #expect(Self.isNone(busy.nextWaiting(isWritable: true)), "the error is answered once")
    }

    @Test("How an answer ends the request: kept alive, closing for HTTP/1.0 and CONNECT, a tunnel once, a dribble answering until its end")
    func endings() {
        let pipeline = Pipeline(maximumBodySize: 100)
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head()) == .asIs)
        #expect(pipeline.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(version: .http1_0)) == .closing)
        #expect(Self.isNone(pipeline.received(.head(Self.head()), isWritable: true)), "nothing is read after a closing answer")

        for ending: OutgoingResponse.Ending in [.close, .fault(ConnectionFault(.timedOut))] {
            let ended = Pipeline(maximumBodySize: 100)
            #expect(ended.answerReady(ending: ending, dribbled: false, for: Self.head()) == .closing)
        }
        let connect = Pipeline(maximumBodySize: 100)
        #expect(connect.answerReady(ending: .keepAlive, dribbled: false, for: Self.head(.CONNECT, "a.example:443")) == .closing)

        let host = UpstreamHost("https://api.example.com")!
        let tunnel = Pipeline(maximumBodySize: 100)
        #expect(tunnel.answerReady(ending: .tunnel(host), dribbled: false, for: Self.head(.CONNECT, "api.example.com:443")) == .tunnel(host))
        let nested = Pipeline(maximumBodySize: 100, tunnelOrigin: host)
        guard case .refusal(let refusal) = nested.answerReady(ending: .tunnel(host), dribbled: false, for: Self.head(.CONNECT, "x:443"))
        else { Issue.record("a CONNECT inside a tunnel was not refused"); return }
        #expect(refusal.status == 400)

        let dribbling = Pipeline(maximumBodySize: 100)
        _ = dribbling.received(.head(Self.head()), isWritable: true)
        _ = dribbling.received(.end(nil), isWritable: true)
        #expect(dribbling.answerReady(ending: .keepAlive, dribbled: true, for: Self.head()) == .asIs)
        #expect(Self.isNone(dribbling.received(.head(Self.head(.GET, "/next")), isWritable: true)), "waits for the dribble")
        #expect(Self.isNone(dribbling.received(.end(nil), isWritable: true)))
        #expect(dribbling.dribbleEnded())
        #expect(Self.answered(dribbling.nextWaiting(isWritable: true))?.uri == "/next")
    }

    @Test("The shutdown deadline cuts a dribble; a task is cancelled by the handler, the connection kept for its 503")
    func shutdownDeadline() {
        let dribbling = Pipeline(maximumBodySize: 100)
        _ = dribbling.answerReady(ending: .keepAlive, dribbled: true, for: Self.head())
        #expect(dribbling.shutdownDeadlinePassed())
        #expect(!dribbling.dribbleEnded(), "a dribble cut short does not take requests again")

        let task = Pipeline(maximumBodySize: 100)
        _ = task.received(.head(Self.head()), isWritable: true)
        _ = task.received(.end(nil), isWritable: true)
        #expect(!task.shutdownDeadlinePassed())
        #expect(task.isAnswering)
    }

    @Test("The lifecycle's closing answer is framed for the request whose body is being read, and given once")
    func lifecycleClose() throws {
        let pipeline = Pipeline(maximumBodySize: 100)
        _ = pipeline.received(.head(Self.head(.HEAD, "/a", [("Content-Length", "5")])), isWritable: true)
        let slow = try #require(Self.closing(pipeline.close(after: Response(status: 408), version: .http1_1)))
        #expect(slow.framing == RequestFraming(version: .http1_1, method: .HEAD))
        #expect(Self.isNone(pipeline.close(after: Response(status: 408), version: .http1_1)))
    }

    @Test("Whatever the reads' split and the client's reading, every pipelined request is answered once, in order (property)")
    func orderProperty() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let pipeline = Pipeline(maximumBodySize: 1_000)
            let count = Int.random(in: 1...12, using: &generator)
            var parts: [HTTPServerRequestPart] = []
            for index in 0..<count {
                let post = Bool.random(using: &generator)
                parts.append(.head(Self.head(post ? .POST : .GET, "/\(index)")))
                if post { for _ in 0..<Int.random(in: 1...3, using: &generator) { parts.append(Self.body("b\(index)")) } }
                parts.append(.end(nil))
            }
            var answered: [String] = []
            var inTask: HTTPRequestHead?
            var writable = true
            func execute(_ action: RequestPipeline.Action) {
                guard case .answer(let head, _) = action else { return }
                answered.append(head.uri)
                // Half the answers come from a task, later.
                if Bool.random(using: &generator) { inTask = head } else {
                    _ = pipeline.answerReady(ending: .keepAlive, dribbled: false, for: head)
                }
            }
            func drain() {
                while true {
                    let action = pipeline.nextWaiting(isWritable: writable)
                    if case .none = action { break }
                    execute(action)
                }
            }
            var remaining = parts[...]
            var steps = 0
            while !remaining.isEmpty || inTask != nil, steps < 10_000 {
                steps += 1
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    if let part = remaining.popFirst() { execute(pipeline.received(part, isWritable: writable)) }
                case 1:
                    writable.toggle()
                    drain()
                default:
                    if let head = inTask {
                        inTask = nil
                        _ = pipeline.answerReady(ending: .keepAlive, dribbled: false, for: head)
                        drain()
                    }
                }
            }
            writable = true
            drain()
            while let head = inTask {
                inTask = nil
                _ = pipeline.answerReady(ending: .keepAlive, dribbled: false, for: head)
                drain()
            }
            #expect(answered == (0..<count).map { "/\($0)" })
        }
    }
}
