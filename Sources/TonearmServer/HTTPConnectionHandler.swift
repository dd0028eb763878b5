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
/// Every answer leaves as one ``OutgoingResponse`` written to ``ResponseWriter``, the only writer of
/// response bytes.
///
/// Back-pressure: while the answers written are not flushed past the channel's high water mark (a client
/// that does not read them), or a request is answered in a task, the requests already read wait in
/// ``queued`` and the handler withholds the channel's next read (`read(context:)` is not passed on), so
/// what one connection holds is bounded by one read and one answer, not by what it sends.
///
/// It also executes the connection's ``ConnectionLifecycle`` (when it closes: deadlines, the body rate,
/// idle, stopping, shedding): feeds it what it reads and writes with the event loop's time, does what it
/// decides, keeps one wake-up at its deadline and tells the registry its phase. One handler rather than
/// one more in the pipeline: every request part and every answer crossing a handler of its own cost
/// about 1,000 instructions a request (docs/benchmarks.md, "CI: the request path's instruction and
/// allocation limits").
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ResponseWrite
    typealias OutboundOut = ResponseWrite

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
    /// Whether the channel asked to read while reading was withheld: the read is passed on once the
    /// connection reads again.
    private var readWithheld = false

    /// The methods the parser could not have read, to put back on their heads.
    private let rewrites: MethodRewrites

    // The lifecycle's state is `@exclusivity(unchecked)`: the runtime's exclusivity check on each access
    // cost about 900 instructions a request (docs/benchmarks.md, "CI: the request path's instruction and
    // allocation limits"). It cannot be violated: only this handler's methods touch these properties, on
    // the channel's event loop, and each access is a call to the lifecycle's own methods or a plain read
    // or write, which call nothing outside it; what the handler then does (fire, write, close) happens
    // after the access has ended.
    @exclusivity(unchecked) private var lifecycle: ConnectionLifecycle?
    private let limits: ConnectionLifecycle.Limits
    private let registry: ConnectionRegistry
    /// The wake-up scheduled for the lifecycle's deadline, and that deadline.
    @exclusivity(unchecked) private var wakeUp: (deadline: NIODeadline, task: Scheduled<Void>)?
    @exclusivity(unchecked) private var published: ConnectionActivity.Phase = .awaitingHead

    init(
        core: ServerCore, pipeline: HTTPPipeline, activity: ConnectionActivity, registry: ConnectionRegistry, origin: UpstreamHost?,
        rewrites: MethodRewrites
    ) {
        self.rewrites = rewrites
        self.registry = registry
        limits = ConnectionLifecycle.Limits(core.configuration)
        self.core = core
        self.pipeline = pipeline
        self.activity = activity
        self.origin = origin
        limit = core.configuration.maximumBodySize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // For the first request the head deadline counts from accept.
        lifecycle = ConnectionLifecycle(limits: limits, acceptedAt: context.eventLoop.now)
        followDeadline(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelWakeUp()
        lifecycle = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var part = unwrapInboundIn(data)
        let passes: Bool
        switch part {
        case .head(let head): passes = lifecycle?.headReceived(version: head.version) ?? false
        case .body(let chunk): passes = lifecycle?.bodyReceived(count: chunk.readableBytes) ?? false
        case .end: passes = lifecycle?.requestEnded() ?? false
        }
        // A connection answered 408 or 503, or closing after its last answer, reads nothing more.
        guard passes else { return }
        settle(context: context)
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

    func channelReadComplete(context: ChannelHandlerContext) {
        lifecycle?.readCompleted(now: context.eventLoop.now)
        settle(context: context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        lifecycle?.writabilityChanged(isWritable: context.channel.isWritable, now: context.eventLoop.now)
        settle(context: context)
        if context.channel.isWritable { handleQueued(version: .http1_1, context: context) }
        updateReading(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelWakeUp()
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
        case is IdleStateHandler.IdleStateEvent:
            perform(lifecycle?.idleTimedOut(isWritable: context.channel.isWritable) ?? .none, context: context)
        case is ServerStopping:
            perform(lifecycle?.serverStopping() ?? .none, context: context)
        case is ShedConnection:
            perform(lifecycle?.shed() ?? .none, context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: - The lifecycle

    /// Does what the lifecycle decided, then follows its deadline and publishes its phase.
    private func perform(_ action: ConnectionLifecycle.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            state = .closing
            context.close(promise: nil)
        case .answerAndClose(let status, let message, let version):
            // How a slow client, or one shed for a new one, is told why it is being closed.
            if case .closing = state { break }
            close(after: ServerCore.plainText(status, message), request: RequestFraming(version: version, method: methodReading), context: context)
        }
        settle(context: context)
    }

    /// After any event: the wake-up follows the lifecycle's deadline, and the registry its phase.
    private func settle(context: ChannelHandlerContext) {
        followDeadline(context: context)
        guard let phase = lifecycle?.phase, phase != published else { return }
        published = phase
        let word = activity.enter(phase)
        if phase != .busy { registry.noteSheddable(activity, word: word) }
    }

    private func followDeadline(context: ChannelHandlerContext) {
        let deadline = lifecycle?.deadline
        guard deadline != wakeUp?.deadline else { return }
        cancelWakeUp()
        guard let deadline else { return }
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            if wakeUp?.deadline == deadline { wakeUp = nil }
            perform(lifecycle?.deadlinePassed(now: context.eventLoop.now, isWritable: context.channel.isWritable) ?? .none, context: context)
        }
        wakeUp = (deadline, task)
    }

    private func cancelWakeUp() {
        wakeUp?.task.cancel()
        wakeUp = nil
    }

    /// Writes a final answer: made closing when the lifecycle says it is the last one awaited of a
    /// connection that closes after them; the lifecycle told when it ended (written, or its last
    /// dribbled part).
    private func emit(_ response: OutgoingResponse, request: RequestFraming, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        var response = response
        if lifecycle?.answerWritten(keepsAlive: response.ending == .keepAlive) == true {
            response.ending = .close
            state = .closing
            queued.removeAll()
        }
        guard case .parts(_, .dribbled, _) = response.message else {
            context.writeAndFlush(wrapOutboundOut(ResponseWrite(response: response, request: request)), promise: promise)
            return answerEnded(context: context)
        }
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in answerEnded(context: context) }
        context.writeAndFlush(wrapOutboundOut(ResponseWrite(response: response, request: request)), promise: written)
    }

    private func answerEnded(context: ChannelHandlerContext) {
        lifecycle?.answerEnded(now: context.eventLoop.now)
        settle(context: context)
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
            close(after: ServerCore.plainText(status, message), request: RequestFraming(version: .http1_1, method: methodReading), context: context)
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
                return close(after: Self.tooLarge(limit), request: RequestFraming(version: head.version, method: head.method), context: context)
            }
            if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(
                    wrapOutboundOut(ResponseWrite(response: .continue, request: RequestFraming(version: head.version, method: head.method))),
                    promise: nil)
            }
            state = .reading(head, body: nil)
        case (.body(var chunk), .reading(let head, var body)):
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= limit else {
                return close(after: Self.tooLarge(limit), request: RequestFraming(version: head.version, method: head.method), context: context)
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
            case .now(let response):
                state = .idle
                send(response, for: head, context: context)
            case .later(let work):
                // A client pipelining behind a long delay is not read meanwhile, so its requests wait in
                // the socket rather than in memory.
                state = .answering
                let loop = context.eventLoop
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
                answering = Task(executorPreference: EventLoopExecutor(loop)) {
                    let response = await work()
                    loop.execute { bound.value.handler.finishAnswering(response, for: head, context: bound.value.context) }
                }
            }
        case (.body, _), (.end, _):
            break  // the rest of a request already refused
        }
    }

    /// Sends the answer a task produced, then reads what the client sent meanwhile.
    private func finishAnswering(_ response: OutgoingResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard case .answering = state else { return }  // the client went away
        state = .idle
        answering = nil
        send(response, for: head, context: context)
        resume(version: head.version, context: context)
    }

    /// Once nothing is answered in a task: handles what waited, and reads again when it may.
    private func resume(version: HTTPVersion, context: ChannelHandlerContext) {
        handleQueued(version: version, context: context)
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
        case .idle, .reading: close(after: brokenStream, request: RequestFraming(version: version, method: .GET), context: context)
        case .answering, .closing: break
        }
    }

    /// Whether requests can be handled as they arrive: not while one is answered in a task, nor while the
    /// client leaves its answers unread.
    private func mayRead(context: ChannelHandlerContext) -> Bool {
        switch state {
        case .idle, .reading: queued.isEmpty && context.channel.isWritable
        case .answering, .closing: false
        }
    }

    func read(context: ChannelHandlerContext) {
        guard mayRead(context: context) else {
            readWithheld = true
            return
        }
        context.read()
    }

    /// Passes on a read withheld while the connection could not take requests, once it can.
    private func updateReading(context: ChannelHandlerContext) {
        guard readWithheld, mayRead(context: context) else { return }
        readWithheld = false
        context.read()
    }

    /// Writes `response` to the request `head` (closing after it when the request does not keep the
    /// connection alive), or plays its fault; for a dribbled body, the connection answers until the
    /// last part is written.
    private func send(_ response: OutgoingResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        var response = response
        let request = RequestFraming(version: head.version, method: head.method)
        switch response.ending {
        case .keepAlive:
            // After CONNECT the client would start a tunnel: close instead.
            if !head.isKeepAlive || head.method == .CONNECT { return close(sending: &response, request: request, context: context) }
        case .close, .fault:
            return close(sending: &response, request: request, context: context)
        case .tunnel(let host):
            return openTunnel(to: host, request: request, context: context)
        case .interim:
            break
        }
        guard case .parts(_, .dribbled, _) = response.message else { return emit(response, request: request, promise: nil, context: context) }
        state = .answering
        dribbling = true
        let written = context.eventLoop.makePromise(of: Void.self)
        emit(response, request: request, promise: written, context: context)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            let (handler, context) = bound.value
            guard case .answering = handler.state, handler.dribbling else { return }  // the client left
            handler.dribbling = false
            handler.state = .idle
            handler.resume(version: head.version, context: context)
        }
    }

    /// Writes `response` (its ending made `close` when it would keep the connection) and nothing after
    /// it: the connection closes once it is written, or is failed as its fault says.
    private func close(sending response: inout OutgoingResponse, request: RequestFraming, context: ChannelHandlerContext) {
        state = .closing
        queued.removeAll()
        brokenStream = nil
        if response.ending == .keepAlive { response.ending = .close }
        emit(response, request: request, promise: nil, context: context)
    }

    /// Writes `response` with `Connection: close`, then closes the connection: once written, or after
    /// ``ResponseWriter/finalAnswerGrace`` for a client that does not read it.
    private func close(after response: Response, request: RequestFraming, context: ChannelHandlerContext) {
        var outgoing = OutgoingResponse(response, ending: .close)
        close(sending: &outgoing, request: request, context: context)
    }

    /// Answers the `CONNECT` 200 and, once that is written, hands the connection to TLS for `host`.
    /// Nothing more is read meanwhile: the client sends its TLS hello only after the 200.
    private func openTunnel(to host: UpstreamHost, request: RequestFraming, context: ChannelHandlerContext) {
        if let origin {
            // A second CONNECT would stack TLS on TLS; no proxy client sends one, so one level is what is supported.
            let message = "CONNECT inside the intercepted tunnel to \(origin.origin) is not supported; open a tunnel from the proxy itself"
            return close(after: ServerCore.plainText(400, message, extra: [HeaderField("Tonearm-Refused", message)]), request: request, context: context)
        }
        state = .closing
        queued.removeAll()
        let written = context.eventLoop.makePromise(of: Void.self)
        emit(.tunnel(to: host), request: request, promise: written, context: context)
        let channel = context.channel, pipeline = pipeline, activity = activity
        written.futureResult.whenComplete { result in
            guard case .success = result else { return channel.close(promise: nil) }
            // After the current read has unwound: the old parser is mid-call when the 200 is written at once.
            channel.eventLoop.execute {
                pipeline.intercept(channel, host: host, activity: activity)
                // This handler withheld the channel's reads since the CONNECT; the new handlers read.
                channel.read()
            }
        }
    }

    private static func tooLarge(_ limit: Int) -> Response {
        ServerCore.plainText(413, "request body is larger than the server accepts (\(limit) bytes)")
    }
}
