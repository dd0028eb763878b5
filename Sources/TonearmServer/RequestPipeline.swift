import NIOCore
import NIOHTTP1
import Tonearm

/// The requests of one connection, decided as a value: each read whole (within the body limit),
/// answered one at a time and in the order they came, however many a client pipelines.
///
/// Events go in (a request's part, an answer ready, a task's or a dribble's end, unparseable bytes, the
/// client asking to be read from, the connection closing) with whether the client is reading its
/// answers (the channel's writability); what to do comes out as an ``Action``, which
/// ``HTTPConnectionHandler`` only executes. The handler asks ``nextWaiting(isWritable:)`` for the parts
/// that waited, until it says `.none`.
///
/// Back-pressure: while a request is answered in a task, its body dribbled, or its answers are not
/// being read, what arrives waits here and the channel's next read is withheld
/// (``readRequested(isWritable:)``), so a connection holds at most one read and one answer, not what
/// the client sends.
struct RequestPipeline {
    /// Where the connection is.
    enum Phase {
        /// Between requests.
        case idle
        /// A request's head arrived; its body (if any) is being collected.
        case reading(HTTPRequestHead, body: ByteBuffer?)
        /// A request is being answered: in a task, or its answer's body is being dribbled.
        case answering(dribbling: Bool)
        /// The connection is closing: anything more from the client is ignored.
        case closing
    }

    /// What the connection does.
    enum Action {
        /// Nothing, now.
        case none
        /// Write `100 Continue` for a request that expects it.
        case writeContinue(RequestFraming)
        /// Answer this whole request: then tell ``answerReady(ending:dribbled:for:upgrade:)`` how it ends, now or
        /// when a task has the answer.
        case answer(HTTPRequestHead, body: ByteBuffer?)
        /// Write this answer of the connection's own (413, 400, 431, 408, 503), the connection's last.
        case writeClosing(Response, RequestFraming)
    }

    private(set) var phase = Phase.idle
    /// Parts that arrived while a request was being answered, or while the client was not reading its
    /// answers: never more than one read's worth, since reads are withheld meanwhile.
    private var waiting = CircularBuffer<HTTPServerRequestPart>()
    /// The answer to unparseable bytes that arrived behind requests not answered yet: it follows them.
    private var brokenStream: Response?
    /// Whether the channel asked to read while reading was withheld.
    private var readWithheld = false
    /// The version of the last head read, for an answer that is not to a request (bad bytes).
    private var version = HTTPVersion.http1_1

    /// The largest body read.
    let maximumBodySize: Int
    /// Inside an intercepted tunnel, its origin: a `CONNECT` there is refused (one level of TLS).
    let tunnelOrigin: UpstreamHost?

    init(maximumBodySize: Int, tunnelOrigin: UpstreamHost? = nil) {
        self.maximumBodySize = maximumBodySize
        self.tunnelOrigin = tunnelOrigin
    }

    // MARK: - Reading

    /// A part of a request was read: handled now when nothing is ahead of it, else it waits.
    mutating func received(_ part: HTTPServerRequestPart, isWritable: Bool) -> Action {
        switch phase {
        case .answering:
            waiting.append(part)
            return .none
        case .closing:
            return .none
        case .idle, .reading:
            guard waiting.isEmpty && isWritable else {
                waiting.append(part)
                return .none
            }
            return handle(part)
        }
    }

    /// The next thing to do for what waited, while the connection takes requests: a waiting part
    /// handled, then the answer to bad bytes that followed them; `.none` once there is nothing to do now.
    mutating func nextWaiting(isWritable: Bool) -> Action {
        while isWritable, takesParts, let part = waiting.popFirst() {
            let action = handle(part)
            if case .none = action { continue }
            return action
        }
        guard takesParts, waiting.isEmpty, let brokenStream else { return .none }
        return close(after: brokenStream, framing: RequestFraming(version: version, method: .GET))
    }

    private var takesParts: Bool {
        switch phase {
        case .idle, .reading: true
        case .answering, .closing: false
        }
    }

    private mutating func handle(_ part: HTTPServerRequestPart) -> Action {
        switch part {
        case .head(let head):
            version = head.version
            if let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > maximumBodySize {
                return close(after: tooLarge, framing: RequestFraming(version: head.version, method: head.method))
            }
            phase = .reading(head, body: nil)
            if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                return .writeContinue(RequestFraming(version: head.version, method: head.method))
            }
            return .none
        case .body(var chunk):
            guard case .reading(let head, var body) = phase else { return .none }  // the rest of a request already refused
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= maximumBodySize else {
                return close(after: tooLarge, framing: RequestFraming(version: head.version, method: head.method))
            }
            // The phase lets go of the body while it grows, so appending does not copy what it holds.
            phase = .idle
            // Most requests have no body: the buffer is made by the first chunk.
            if body == nil {
                body = chunk
            } else {
                body?.writeBuffer(&chunk)
            }
            phase = .reading(head, body: body)
            return .none
        case .end:
            guard case .reading(let head, let body) = phase else { return .none }  // the rest of a request already refused
            phase = .answering(dribbling: false)
            return .answer(head, body: body)
        }
    }

    private var tooLarge: Response {
        ServerCore.plainText(413, "request body is larger than the server accepts (\(maximumBodySize) bytes)")
    }

    // MARK: - Answering

    /// How an answer ready for a request is written.
    enum Writing: Equatable {
        /// As it is.
        case asIs
        /// With `Connection: close` (its ending made `close` if it kept the connection alive), the
        /// connection's last.
        case closing
        /// As the `CONNECT` 200; then TLS for `host` is terminated on the connection.
        case tunnel(UpstreamHost)
        /// As the `101`; then the connection speaks WebSocket, as `plan` says.
        case webSocket(WebSocketPlan)
        /// Not at all: this refusal instead, and the connection closes.
        case refusal(Response)
    }

    /// The answer to the request `head` (which carried `Upgrade` when `upgrade`) is ready (at once, or
    /// from its task), ending as `ending`: how to write it. It closes the connection when the request does not keep it alive or the answer ends
    /// it; a `dribbled` body (any body written over time: a dribble, a stream) keeps the connection answering
    /// until ``dribbleEnded()``.
    ///
    /// Told the answer's ending, not given the answer: the answer goes from the core to the writer
    /// without being copied through the machine on every request.
    mutating func answerReady(ending: OutgoingResponse.Ending, dribbled: Bool, for head: HTTPRequestHead, upgrade: Bool = false) -> Writing {
        switch ending {
        case .keepAlive:
            // After CONNECT the client would start a tunnel: close instead. After an upgrade request the
            // parser reads no more (the client may speak another protocol next), so an ordinary answer to
            // one ends the connection too.
            if !head.isKeepAlive || head.method == .CONNECT || upgrade {
                closed()
                return .closing
            }
        case .close, .fault:
            closed()
            return .closing
        case .tunnel(let host):
            closed()
            if let tunnelOrigin {
                // A second CONNECT would stack TLS on TLS; no proxy client sends one, so one level is what is supported.
                let message = "CONNECT inside the intercepted tunnel to \(tunnelOrigin.origin) is not supported; open a tunnel from the proxy itself"
                return .refusal(ServerCore.plainText(400, message, extra: [HeaderField("Tonearm-Refused", message)]))
            }
            // Nothing more is read meanwhile: the client sends its TLS hello only after the 200.
            return .tunnel(host)
        case .webSocket(let plan):
            // Nothing more is HTTP: the socket's frames follow the 101.
            closed()
            return .webSocket(plan)
        case .interim:
            break
        }
        phase = dribbled ? .answering(dribbling: true) : .idle
        return .asIs
    }

    /// Whether a request is being answered in a task (or dribbled): its answer is still wanted.
    var isAnswering: Bool {
        if case .answering = phase { return true }
        return false
    }

    /// A dribbled body's last part was written: whether the connection takes requests again (it does
    /// unless it closed meanwhile).
    mutating func dribbleEnded() -> Bool {
        guard case .answering(dribbling: true) = phase else { return false }
        phase = .idle
        return true
    }

    // MARK: - Closing

    /// `response` is written with `Connection: close`, and nothing after it.
    mutating func close(after response: Response, version: HTTPVersion) -> Action {
        if case .closing = phase { return .none }
        return close(after: response, framing: RequestFraming(version: version, method: methodReading))
    }

    /// The answer being written is the connection's last (the server stops, or it was shed).
    mutating func closesAfterThisAnswer() {
        phase = .closing
        waiting.removeAll()
        brokenStream = nil
    }

    /// The connection closes now, or has closed: everything held for the client goes.
    mutating func closed() {
        phase = .closing
        waiting.removeAll()
        brokenStream = nil
    }

    /// The server's shutdown deadline passed: whether to close now (a dribble is cut; a task is
    /// cancelled by the handler and its 503 closes the connection after it).
    mutating func shutdownDeadlinePassed() -> Bool {
        guard case .answering(dribbling: true) = phase else { return false }
        closed()
        return true
    }

    /// Bytes the parser could not read: answered `status` with `message` and closed, after the
    /// requests read before them.
    mutating func parseFailed(status: Int, message: String) -> Action {
        switch phase {
        case .answering:
            // The request being answered keeps its turn; the error answer and the close follow it.
            brokenStream = ServerCore.plainText(status, message)
            return .none
        case .closing:
            return .none
        case .idle, .reading:
            // Requests read before the bad bytes wait for the client to read its answers: the error follows them.
            guard waiting.isEmpty else {
                brokenStream = ServerCore.plainText(status, message)
                return .none
            }
            return close(after: ServerCore.plainText(status, message), framing: RequestFraming(version: .http1_1, method: methodReading))
        }
    }

    /// The method of the request whose body is being read, else GET: what an answer cutting it short
    /// (a refused or too slow body) is framed for.
    var methodReading: HTTPMethod {
        if case .reading(let head, _) = phase { return head.method }
        return .GET
    }

    private mutating func close(after response: Response, framing: RequestFraming) -> Action {
        closed()
        return .writeClosing(response, framing)
    }

    // MARK: - Back-pressure

    /// The channel asks to read: whether to pass the read on now. A read withheld is passed on by
    /// ``withheldReadMayGo(isWritable:)`` once requests are taken again.
    mutating func readRequested(isWritable: Bool) -> Bool {
        guard takesRequests(isWritable: isWritable) else {
            readWithheld = true
            return false
        }
        return true
    }

    /// Whether a read withheld earlier is to be passed on now.
    mutating func withheldReadMayGo(isWritable: Bool) -> Bool {
        guard readWithheld, takesRequests(isWritable: isWritable) else { return false }
        readWithheld = false
        return true
    }

    /// Whether requests can be handled as they arrive: not while one is answered, nor while the client
    /// leaves its answers unread, nor while parts wait.
    private func takesRequests(isWritable: Bool) -> Bool {
        takesParts && waiting.isEmpty && isWritable
    }
}
