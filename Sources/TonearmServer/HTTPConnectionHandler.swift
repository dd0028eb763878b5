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
/// It executes two state machines, which decide: ``RequestPipeline`` (the requests in order, what waits,
/// back-pressure by withholding the channel's reads) and ``ConnectionLifecycle`` (when it closes:
/// deadlines, the body rate, idle, stopping, shedding). For the lifecycle it the connection's ``ConnectionLifecycle`` (when it closes: deadlines, the body rate,
/// idle, stopping, shedding): feeds it what it reads and writes with the event loop's time, does what it
/// decides, keeps one wake-up at its deadline and tells the registry its phase. One handler rather than
/// one more in the pipeline: every request part and every answer crossing a handler of its own cost
/// about 1,000 instructions a request (docs/benchmarks.md, "CI: the request path's instruction and
/// allocation limits").
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ResponseWrite
    typealias OutboundOut = ResponseWrite

    private let core: ServerCore
    /// What set this connection up, to set it up again behind TLS when a `CONNECT` is intercepted.
    private let pipeline: HTTPPipeline
    private let activity: ConnectionActivity
    /// Inside an intercepted tunnel, the origin (`https://api.example.com`) its origin-form targets belong to.
    private let origin: UpstreamHost?
    /// The task answering the current request, cancelled when the client leaves or the server's
    /// shutdown deadline passes.
    private var answering: Task<Void, Never>?

    /// The methods the parser could not have read, to put back on their heads.
    private let rewrites: MethodRewrites

    // The state machines' state is `@exclusivity(unchecked)`: the runtime's exclusivity check on each
    // access cost about 900 instructions a request (docs/benchmarks.md, "CI: the request path's
    // instruction and allocation limits"). It cannot be violated: only this handler's methods touch
    // these properties, on the channel's event loop, and each access is a call to the machine's own
    // methods or a plain read or write, which call nothing outside it; what the handler then does
    // (fire, write, close, ask the core), which may re-enter the handler, happens after the access has ended.
    @exclusivity(unchecked) private var requests: RequestPipeline
    @exclusivity(unchecked) private var lifecycle: ConnectionLifecycle?
    private let limits: ConnectionLifecycle.Limits
    private let registry: ConnectionRegistry
    /// The wake-up scheduled for the lifecycle's deadline, and that deadline.
    @exclusivity(unchecked) private var wakeUp: (deadline: NIODeadline, task: Scheduled<Void>)?
    @exclusivity(unchecked) private var published: ConnectionActivity.Phase = .awaitingHead
    /// The stream being written, while the answer is one (the server stopping ends it, or lets it end).
    private var streaming: BodyStream?
    /// Whether the request being answered carries `Upgrade`: the parser reads nothing after it.
    /// `@exclusivity(unchecked)` as the machines' state above, for the same reason: it is written and
    /// read only by this handler's methods on the channel's event loop, each access a plain read or write.
    @exclusivity(unchecked) private var answeringUpgrade = false
    /// The client's IP address, written once per connection on its first request (then only copied),
    /// for WireMock's `clientIp`.
    @exclusivity(unchecked) private var peerAddress: ClientAddress??

    init(
        core: ServerCore, pipeline: HTTPPipeline, activity: ConnectionActivity, registry: ConnectionRegistry, origin: UpstreamHost?,
        rewrites: MethodRewrites
    ) {
        self.rewrites = rewrites
        self.registry = registry
        limits = ConnectionLifecycle.Limits(core.configuration)
        requests = RequestPipeline(maximumBodySize: core.configuration.limits.maximumBodySize, tunnelOrigin: origin)
        self.core = core
        self.pipeline = pipeline
        self.activity = activity
        self.origin = origin
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
        perform(requests.received(part, isWritable: context.channel.isWritable), context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        lifecycle?.readCompleted(now: context.eventLoop.now)
        settle(context: context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        lifecycle?.writabilityChanged(isWritable: context.channel.isWritable, now: context.eventLoop.now)
        settle(context: context)
        resume(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelWakeUp()
        // Everything held for this client goes with it.
        requests.closed()
        answering?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ShutdownDeadlinePassed:
            // The task answers 503 once cancelled; the server closes the connection after it.
            answering?.cancel()
            if requests.shutdownDeadlinePassed() { context.close(promise: nil) }
        case is IdleStateHandler.IdleStateEvent:
            perform(
                lifecycle?.idleTimedOut(isWritable: context.channel.isWritable, now: context.eventLoop.now, idleTimeout: pipeline.idleTimeout)
                    ?? .none,
                context: context)
        case is ServerStopping:
            // A live stream has no end to wait for: it ends with the server (its client reconnects to
            // the next one). A relayed stream being recorded ends itself, cut, and is kept.
            if let streaming, !streaming.source.serverStopping() {
                requests.closed()
                return context.close(promise: nil)
            }
            perform(lifecycle?.serverStopping() ?? .none, context: context)
        case is ShedConnection:
            perform(lifecycle?.shed() ?? .none, context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            requests.closed()
            context.close(promise: nil)
            return
        }
        let status = error == .headerOverflow ? 431 : 400
        let message = error == .headerOverflow
            ? "request headers are larger than the server accepts (80 KiB)"
            : "malformed HTTP request: \(error)"
        perform(requests.parseFailed(status: status, message: message), context: context)
    }

    func read(context: ChannelHandlerContext) {
        guard requests.readRequested(isWritable: context.channel.isWritable) else { return }
        context.read()
    }

    // MARK: - The requests

    /// Does what the request pipeline decided.
    private func perform(_ action: RequestPipeline.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .writeContinue(let framing):
            context.writeAndFlush(wrapOutboundOut(ResponseWrite(response: .continue, request: framing)), promise: nil)
        case .answer(let head, let body):
            answer(head, body: body, context: context)
        case .writeClosing(let response, let framing):
            emit(OutgoingResponse(response, ending: .close), request: framing, promise: nil, context: context)
        }
    }

    /// Writes the answer to the request `head`, as the request pipeline says.
    private func send(_ response: consuming OutgoingResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        let takesTime = response.message.bodyTakesTime
        let framing = RequestFraming(version: head.version, method: head.method)
        switch requests.answerReady(ending: response.ending, dribbled: takesTime, for: head, upgrade: answeringUpgrade) {
        case .asIs:
            emit(response, request: framing, promise: nil, context: context)
        case .closing:
            if response.ending == .keepAlive { response.ending = .close }
            emit(response, request: framing, promise: nil, context: context)
        case .tunnel(let host):
            openTunnel(to: host, request: framing, context: context)
        case .webSocket(let plan):
            openWebSocket(plan, response: response, request: framing, context: context)
        case .refusal(let refusal):
            emit(OutgoingResponse(refusal, ending: .close), request: framing, promise: nil, context: context)
        }
    }

    /// Once the connection may take requests again: does what waited, then reads again when it may.
    private func resume(context: ChannelHandlerContext) {
        while true {
            let action = requests.nextWaiting(isWritable: context.channel.isWritable)
            if case .none = action { break }
            perform(action, context: context)
        }
        if requests.withheldReadMayGo(isWritable: context.channel.isWritable) { context.read() }
    }

    /// The connection's peer address as text, worked out once.
    private func clientAddress(_ context: ChannelHandlerContext) -> ClientAddress? {
        if let peerAddress { return peerAddress }
        let address = context.channel.remoteAddress.flatMap(ClientAddress.init)
        peerAddress = .some(address)
        return address
    }

    /// Has the core answer the request `head`: at once, or in a task on the connection's loop, whose
    /// answer comes back to the loop.
    private func answer(_ head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
        // In a tunnel, `/v1/users` is `https://api.example.com/v1/users`: routed as a forward-proxy request.
        let target = origin.map { head.uri.hasPrefix("/") ? $0.origin + head.uri : head.uri } ?? head.uri
        // One pass over the fields copies them and notes an `Upgrade` (a WebSocket handshake, or an
        // upgrade after which the parser reads no more).
        var asksUpgrade = false
        let headers = head.headers.map { field in
            if ServerRequest.isUpgradeField(field.name) { asksUpgrade = true }
            return HeaderField(field.name, field.value)
        }
        answeringUpgrade = asksUpgrade
        let request = ServerRequest(
            method: head.method.rawValue, target: target, headers: headers, body: body.map { Array(buffer: $0) } ?? [],
            asksUpgrade: asksUpgrade, peer: clientAddress(context))
        switch core.begin(request) {
        case .now(let response):
            send(response, for: head, context: context)
        case .later(let work):
            // A client pipelining behind a long delay is not read meanwhile, so its requests wait in
            // the socket rather than in memory.
            let loop = context.eventLoop
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
            answering = Task(executorPreference: EventLoopExecutor(loop)) {
                let response = await work()
                loop.execute { bound.value.handler.finishAnswering(response, for: head, context: bound.value.context) }
            }
        }
    }

    /// Sends the answer a task produced, then handles what the client sent meanwhile.
    private func finishAnswering(_ response: OutgoingResponse, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard requests.isAnswering else {
            // The client went away: a stream it will never read stops (an upstream being relayed is
            // cancelled now, not at its deadline).
            if case .parts(_, .stream(let stream), _) = response.message { stream.source.stopped() }
            return
        }
        answering = nil
        send(response, for: head, context: context)
        resume(context: context)
    }

    // MARK: - The lifecycle

    /// Does what the lifecycle decided, then follows its deadline and publishes its phase.
    private func perform(_ action: ConnectionLifecycle.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            requests.closed()
            context.close(promise: nil)
        case .answerAndClose(let status, let message, let version):
            // How a slow client, or one shed for a new one, is told why it is being closed.
            perform(requests.close(after: ServerCore.plainText(status, message), version: version), context: context)
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

    // MARK: - Writing

    /// Writes a final answer: made closing when the lifecycle says it is the last one awaited of a
    /// connection that closes after them; the lifecycle is told when it ended (written, or its last
    /// dribbled part), and a dribbled answer's end lets the connection take requests again.
    private func emit(
        _ response: consuming OutgoingResponse, request: RequestFraming, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext
    ) {
        if lifecycle?.answerWritten(keepsAlive: response.ending == .keepAlive) == true {
            response.ending = .close
            requests.closesAfterThisAnswer()
        }
        guard response.message.bodyTakesTime else {
            context.writeAndFlush(wrapOutboundOut(ResponseWrite(response: response, request: request)), promise: promise)
            return answerEnded(context: context)
        }
        if case .parts(_, .stream(let body), _) = response.message { streaming = body }
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in
            streaming = nil
            answerEnded(context: context)
            if requests.dribbleEnded() { resume(context: context) }
        }
        context.writeAndFlush(wrapOutboundOut(ResponseWrite(response: response, request: request)), promise: written)
    }

    private func answerEnded(context: ChannelHandlerContext) {
        let closesNow = lifecycle?.answerEnded(now: context.eventLoop.now) ?? false
        settle(context: context)
        if closesNow { perform(ConnectionLifecycle.Action.close, context: context) }
    }

    /// Answers the WebSocket handshake (`response`, a 101) and, once that is written, hands the connection
    /// to the socket's handlers, which run `plan`.
    private func openWebSocket(
        _ plan: WebSocketPlan, response: consuming OutgoingResponse, request: RequestFraming, context: ChannelHandlerContext
    ) {
        let written = context.eventLoop.makePromise(of: Void.self)
        emit(response, request: request, promise: written, context: context)
        let channel = context.channel, pipeline = pipeline
        written.futureResult.whenComplete { result in
            guard case .success = result else { return channel.close(promise: nil) }
            // After the current read has unwound, as for a tunnel.
            channel.eventLoop.execute {
                pipeline.upgradeToWebSocket(channel, plan: plan)
                channel.read()
            }
        }
    }

    /// Answers the `CONNECT` 200 and, once that is written, hands the connection to TLS for `host`.
    private func openTunnel(to host: UpstreamHost, request: RequestFraming, context: ChannelHandlerContext) {
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
}
