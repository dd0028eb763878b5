import NIOCore
import NIOHTTP1
import NIOPosix
import Tonearm

/// Serves one client connection: reads each request whole (within the size limits), has the core
/// answer it, and writes the answer, for as long as the client keeps the connection alive.
///
/// A request the core answers at once (a replay, a miss) is answered right here on the connection's event
/// loop, without a task; one that must wait (a delay, the network, a control call) runs in a task on the
/// same loop, and the requests a client pipelines behind it wait their turn, so answers keep their order.
///
/// Back-pressure: while the answers written are not flushed past the channel's high water mark (a client
/// that does not read them), the requests already read wait in ``queued`` and nothing more is read from
/// the socket, so what one connection holds is bounded by one read and one answer, not by what it sends.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Between requests.
        case idle
        /// A request's head arrived; its body (if any) is being collected.
        case reading(HTTPRequestHead, body: ByteBuffer?)
        /// A request is being answered in a task.
        case answering
        /// The connection is closing: anything more from the client is ignored.
        case closing
    }

    private let core: ServerCore
    /// What set this connection up, to set it up again behind TLS when a `CONNECT` is intercepted.
    private let pipeline: HTTPPipeline
    /// The handler between this one and the HTTP codec, which writes a plain answer as one buffer.
    private let lifecycle: ConnectionLifecycleHandler
    private let activity: ConnectionActivity
    /// Inside an intercepted tunnel, the origin (`https://api.example.com`) its origin-form targets belong to.
    private let origin: UpstreamHost?
    private let limit: Int
    private var state = State.idle
    /// Parts that arrived while a request was being answered in a task, or while the client was not
    /// reading its answers; never more than one read's worth, since reading stops meanwhile.
    private var queued = CircularBuffer<HTTPServerRequestPart>()
    /// The answer to unparseable bytes that arrived while a request was being answered in a task.
    private var brokenStream: Response?
    /// The task answering the current request, cancelled when the client leaves or the server's
    /// shutdown deadline passes.
    private var answering: Task<Void, Never>?
    /// Whether a body is being dribbled (``Dribble``): the connection is `answering` meanwhile, and a
    /// passed shutdown deadline closes it.
    private var dribbling = false

    /// The methods the parser could not have read, to put back on their heads.
    private let rewrites: MethodRewrites

    init(
        core: ServerCore, pipeline: HTTPPipeline, lifecycle: ConnectionLifecycleHandler, activity: ConnectionActivity, origin: UpstreamHost?,
        rewrites: MethodRewrites
    ) {
        self.rewrites = rewrites
        self.core = core
        self.pipeline = pipeline
        self.lifecycle = lifecycle
        self.activity = activity
        self.origin = origin
        limit = core.configuration.maximumBodySize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        if case .head(var head) = part {
            rewrites.restore(&head)
            part = .head(head)
        }
        switch state {
        case .answering: queued.append(part)
        case .closing: break
        case .idle, .reading:
            guard queued.isEmpty && context.channel.isWritable else {
                queued.append(part)
                return updateReading(context: context)
            }
            handle(part, context: context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { handleQueued(version: .http1_1, context: context) }
        updateReading(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closing
        // Everything held for this client goes with it.
        queued.removeAll()
        answering?.cancel()
        brokenStream = nil
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ShutdownDeadlinePassed:
            // The task answers 503 once cancelled; the server closes the connection after it.
            answering?.cancel()
            if dribbling {
                state = .closing
                context.close(promise: nil)
            }
        case let answer as AnswerAndClose:
            if case .closing = state { return }
            close(after: answer.response, version: answer.version, method: methodReading, context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            state = .closing
            context.close(promise: nil)
            return
        }
        let status = error == .headerOverflow ? 431 : 400
        let message = error == .headerOverflow
            ? "request headers are larger than the server accepts (80 KiB)"
            : "malformed HTTP request: \(error)"
        switch state {
        case .answering:
            // The request being answered keeps its turn; the error answer and the close follow it.
            brokenStream = ServerCore.plainText(status, message)
        case .closing:
            break
        case .idle where !queued.isEmpty, .reading where !queued.isEmpty:
            // Requests read before the bad bytes wait for the client to read its answers: the error follows them.
            brokenStream = ServerCore.plainText(status, message)
        case .idle, .reading:
            close(after: ServerCore.plainText(status, message), version: .http1_1, method: methodReading, context: context)
        }
    }

    /// The method of the request whose head arrived and whose body is being read, else GET: what an
    /// answer cut short (a refused or too-slow body) is framed for.
    private var methodReading: HTTPMethod {
        if case .reading(let head, _) = state { return head.method }
        return .GET
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch (part, state) {
        case (.head(let head), _):
            if let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
                return close(after: Self.tooLarge(limit), version: head.version, method: head.method, context: context)
            }
            if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            state = .reading(head, body: nil)
        case (.body(var chunk), .reading(let head, var body)):
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= limit else {
                return close(after: Self.tooLarge(limit), version: head.version, method: head.method, context: context)
            }
            // Most requests have no body: the buffer is made by the first chunk.
            if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
            state = .reading(head, body: body)
        case (.end, .reading(let head, let body)):
            // In a tunnel, `/v1/users` is `https://api.example.com/v1/users`: routed as a forward-proxy request.
            let target = origin.map { head.uri.hasPrefix("/") ? $0.origin + head.uri : head.uri } ?? head.uri
            let request = ServerRequest(
                method: head.method.rawValue, target: target,
                headers: head.headers.map { HeaderField($0.name, $0.value) }, body: body.map { Array(buffer: $0) } ?? [])
            switch core.begin(request) {
            case .now(let reply):
                state = .idle
                send(reply, for: head, context: context)
            case .later(let work):
                state = .answering
                // A client pipelining behind a long delay is not read meanwhile, so its requests wait in
                // the socket rather than in memory.
                try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                let loop = context.eventLoop
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
                answering = Task(executorPreference: EventLoopExecutor(loop)) {
                    let reply = await work()
                    loop.execute { bound.value.handler.finishAnswering(reply, for: head, context: bound.value.context) }
                }
            }
        case (.body, _), (.end, _):
            break  // the rest of a request already refused
        }
    }

    /// Sends the reply a task produced, then reads what the client sent meanwhile.
    private func finishAnswering(_ reply: ServerReply, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard case .answering = state else { return }  // the client went away
        state = .idle
        answering = nil
        send(reply, for: head, context: context)
        handleQueued(version: head.version, context: context)
        updateReading(context: context)
    }

    /// Handles the parts that waited, as long as the client reads its answers and nothing is answered
    /// in a task; then the answer to bad bytes that followed them, if any.
    private func handleQueued(version: HTTPVersion, context: ChannelHandlerContext) {
        while context.channel.isWritable, let part = queued.first {
            switch state {
            case .idle, .reading:
                queued.removeFirst()
                handle(part, context: context)
            case .answering, .closing:
                return
            }
        }
        guard queued.isEmpty, let brokenStream else { return }
        switch state {
        case .idle, .reading: close(after: brokenStream, version: version, context: context)
        case .answering, .closing: break
        }
    }

    /// Reads from the socket only while requests can be handled as they arrive: not while one is
    /// answered in a task, nor while the client leaves its answers unread.
    private func updateReading(context: ChannelHandlerContext) {
        let reading: Bool
        switch state {
        case .idle, .reading: reading = queued.isEmpty && context.channel.isWritable
        case .answering, .closing: reading = false
        }
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: reading)
    }

    /// Writes `reply` to the request `head`, or plays its fault on the connection.
    private func send(_ reply: ServerReply, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch reply {
        case .response(let response):
            send(response, reasonPhrase: nil, for: head, context: context)
        case .replayed(let response, let encoded):
            send(response, reasonPhrase: nil, encoded: encoded, for: head, context: context)
        case .kept(let kept):
            // What is kept is the answer to an HTTP/1.1 request kept alive, not HEAD (nor CONNECT, never kept alive).
            if head.isKeepAlive, head.version == .http1_1, head.method != .HEAD, head.method != .CONNECT, lifecycle.takesEncodedAnswers {
                return lifecycle.writeEncoded(kept.bytes)
            }
            // Only responses are kept, so there is one to read.
            send(kept.response ?? Response(status: 500), reasonPhrase: nil, for: head, context: context)
        case .responseWithReason(let response, let reasonPhrase):
            send(response, reasonPhrase: reasonPhrase, for: head, context: context)
        case .dribbled(let response, let reasonPhrase, let dribble):
            send(response, reasonPhrase: reasonPhrase, dribbling: dribble, for: head, context: context)
        case .tunnel(let host):
            openTunnel(to: host, version: head.version, context: context)
        case .fault(.close):
            state = .closing
            context.close(promise: nil)
        case .fault(.reset):
            state = .closing
            // SO_LINGER 0 makes close send RST instead of FIN.
            let channel = context.channel
            (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .fault(.garbageThenClose):
            writeRawThenClose(Self.garbage, context: context)
        case .fault(.malformedChunk):
            writeRawThenClose(Self.malformedChunk(version: head.version), context: context)
        }
    }

    /// Bytes that are no HTTP response: what a client sees when a server goes wrong.
    private static let garbage = "lorem ipsum dolor sit amet, not an HTTP response\r\n\r\n"

    /// A valid head announcing a chunked body, then a line that is no chunk size.
    private static func malformedChunk(version: HTTPVersion) -> String {
        "HTTP/\(version.major).\(version.minor) 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum\r\n"
    }

    /// Writes `text` as it is, beneath the HTTP encoder (from the idle handler, which ``HTTPPipeline``
    /// puts below the HTTP handlers and above TLS, toward the socket), then closes.
    private func writeRawThenClose(_ text: String, context: ChannelHandlerContext) {
        state = .closing
        let channel = context.channel
        guard let first = try? context.pipeline.syncOperations.context(handlerType: IdleStateHandler.self) else {
            return channel.close(promise: nil)
        }
        first.writeAndFlush(NIOAny(ByteBuffer(string: text))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Answers the `CONNECT` 200 and, once that is written, hands the connection to TLS for `host`.
    /// Nothing more is read meanwhile: the client sends its TLS hello only after the 200.
    private func openTunnel(to host: UpstreamHost, version: HTTPVersion, context: ChannelHandlerContext) {
        if let origin {
            // A second CONNECT would stack TLS on TLS; no proxy client sends one, so one level is what is supported.
            let message = "CONNECT inside the intercepted tunnel to \(origin.origin) is not supported; open a tunnel from the proxy itself"
            return close(after: ServerCore.plainText(400, message, extra: [HeaderField("Tonearm-Refused", message)]), version: version, context: context)
        }
        state = .closing
        queued.removeAll()
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .custom(code: 200, reasonPhrase: "Connection Established")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let channel = context.channel, pipeline = pipeline, activity = activity
        written.futureResult.whenComplete { result in
            guard case .success = result else { return channel.close(promise: nil) }
            // After the current read has unwound: the old parser is mid-call when the 200 is written at once.
            channel.eventLoop.execute {
                pipeline.intercept(channel, host: host, activity: activity)
                try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            }
        }
    }

    /// Writes `response` (with its own reason phrase, when given) to the request `head`; a plain answer
    /// as one buffer, taken from `encoded` when it keeps the answer for such a request.
    private func send(
        _ response: Response, reasonPhrase: String?, encoded: EncodedAnswers.Slot? = nil, for head: HTTPRequestHead,
        context: ChannelHandlerContext
    ) {
        // After CONNECT the client would start a tunnel: close instead.
        let keepAlive = head.isKeepAlive && head.method != .CONNECT
        guard keepAlive else {
            return close(after: response, reasonPhrase: reasonPhrase, version: head.version, method: head.method, context: context)
        }
        if reasonPhrase == nil && lifecycle.takesEncodedAnswers {
            let allocator = context.channel.allocator
            let encode = { AnswerFraming.encoded(response, method: head.method, version: head.version, allocator: allocator) }
            // What `encoded` keeps is the answer to an HTTP/1.1 request kept alive, not HEAD (CONNECT is not kept alive).
            let answer = if let encoded, head.version == .http1_1, head.method != .HEAD { encoded.buffer(encode: encode) } else { encode() }
            if let answer { return lifecycle.writeEncoded(answer) }
        }
        let (responseHead, body) = AnswerFraming.parts(
            of: response, reasonPhrase: reasonPhrase, version: head.version, keepAlive: true, method: head.method)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        context.flush()
    }

    /// Writes the head of `response` at once and its body in the dribble's parts, a pause before each.
    /// The connection is answering meanwhile (nothing more is read or answered), and goes on as after
    /// any answer once the last part is written; a client that leaves stops it.
    private func send(
        _ response: Response, reasonPhrase: String?, dribbling dribble: Dribble, for head: HTTPRequestHead, context: ChannelHandlerContext
    ) {
        let keepAlive = head.isKeepAlive && head.method != .CONNECT
        let (first, _) = AnswerFraming.parts(
            of: response, reasonPhrase: reasonPhrase, version: head.version, keepAlive: keepAlive, method: head.method)
        let pieces = head.method == .HEAD ? [] : dribble.parts(of: response.body).map { ByteBuffer(bytes: $0) }
        guard !pieces.isEmpty else {
            return keepAlive
                ? send(response, reasonPhrase: reasonPhrase, for: head, context: context)
                : close(after: response, reasonPhrase: reasonPhrase, version: head.version, method: head.method, context: context)
        }
        state = .answering
        dribbling = true
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        context.writeAndFlush(wrapOutboundOut(.head(first)), promise: nil)
        let pause = dribble.total / pieces.count
        writePiece(0, of: pieces, pause: pause, keepAlive: keepAlive, version: head.version, context: context)
    }

    private func writePiece(
        _ index: Int, of pieces: [ByteBuffer], pause: Duration, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext
    ) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let (seconds, attoseconds) = pause.components
        let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = bound.value
            guard case .answering = handler.state, handler.dribbling else { return }  // the client left
            context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(pieces[index]))), promise: nil)
            guard index + 1 == pieces.count else {
                return handler.writePiece(index + 1, of: pieces, pause: pause, keepAlive: keepAlive, version: version, context: context)
            }
            handler.dribbling = false
            guard keepAlive else {
                handler.state = .closing
                let channel = context.channel
                context.writeAndFlush(handler.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            context.writeAndFlush(handler.wrapOutboundOut(.end(nil)), promise: nil)
            handler.state = .idle
            handler.handleQueued(version: version, context: context)
            handler.updateReading(context: context)
        }
    }

    /// Writes `response` with `Connection: close`, then closes the connection: once written, or after
    /// ``finalAnswerGrace`` for a client that does not read it.
    private func close(
        after response: Response, reasonPhrase: String? = nil, version: HTTPVersion, method: HTTPMethod = .GET,
        context: ChannelHandlerContext
    ) {
        state = .closing
        queued.removeAll()
        brokenStream = nil
        let (head, body) = AnswerFraming.parts(of: response, reasonPhrase: reasonPhrase, version: version, keepAlive: false, method: method)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: written)
        context.flush()
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.eventLoop.scheduleTask(in: Self.finalAnswerGrace) { channel.close(promise: nil) }
    }

    /// How long a closing answer may wait for the client to read it.
    private static let finalAnswerGrace = TimeAmount.seconds(2)

    private static func tooLarge(_ limit: Int) -> Response {
        ServerCore.plainText(413, "request body is larger than the server accepts (\(limit) bytes)")
    }
}
