import NIOCore
import NIOWebSocket
import Tonearm

/// Plays a recorded conversation on an upgraded connection: executes what ``WebSocketReplay`` decides,
/// with the event loop's clock (times counted from the upgrade), one wake-up at its deadline, and the
/// frames reassembled by ``WebSocketFrameAssembler``. Pings are answered here; a client breaking the
/// protocol is closed with the code the assembler names.
///
/// Back-pressure: while the client does not read what is sent (the channel is not writable), nothing
/// more is read from it, so a client flooding messages it never reads the answers to holds one read.
final class WebSocketReplayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var replay: WebSocketReplay
    private var assembler: WebSocketFrameAssembler
    private let plan: WebSocketPlan
    private var openedAt = NIODeadline.uptimeNanoseconds(0)
    private var wakeUp: (deadline: Duration, task: Scheduled<Void>)?
    private var readWithheld = false
    /// Whether a close was sent for a broken protocol or a stopping server: nothing more is read.
    private var failed = false
    /// What was exchanged, for the journal once the socket ends (as much as the journal keeps of a body).
    private var transcript = WebSocketTranscript(byteLimit: Journal.storedBodyLimit)

    init(replay: WebSocketReplay, plan: WebSocketPlan) {
        self.replay = replay
        assembler = WebSocketFrameAssembler(maximumMessageSize: plan.maximumMessageSize, peerIsClient: true)
        self.plan = plan
    }

    func handlerAdded(context: ChannelHandlerContext) {
        openedAt = context.eventLoop.now
        if context.channel.isActive { perform(replay.opened(at: .zero), context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelWakeUp()
        plan.ended(transcript.conversation, leftOut: transcript.leftOut)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelWakeUp()
        plan.ended(transcript.conversation, leftOut: transcript.leftOut)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed, !replay.isClosed else { return }
        let now = elapsed(context)
        switch assembler.received(unwrapInboundIn(data)) {
        case .none, .pong:
            break
        case .message(let kind, let payload):
            transcript.add(.client, kind, payload, at: now)
            // Compared as its recording keeps it: redacted.
            let compared = kind == .text ? plan.redaction.redactTextMessage(payload) : payload
            perform(replay.received(kind, compared, at: now), context: context)
        case .ping(let payload):
            context.writeAndFlush(wrapOutboundOut(.server(.pong, payload, allocator: context.channel.allocator)), promise: nil)
        case .close(let code, let reason):
            transcript.closed(by: .client, code: code, reason: reason, at: now)
            perform(replay.clientClosed(code: code, at: now), context: context)
        case .violation(let code, let reason):
            fail(code: code, reason: reason, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The frame decoder's refusals: a frame over the size limit, or a malformed control frame.
        guard let error = error as? NIOWebSocketError,
            case .violation(let code, let reason) = WebSocketFrameAssembler.violation(for: error)
        else { return context.close(promise: nil) }
        fail(code: code, reason: reason, context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ServerStopping:
            fail(code: 1001, reason: "tonearm is stopping", context: context)
        case is ShutdownDeadlinePassed:
            context.close(promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func read(context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            readWithheld = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, readWithheld {
            readWithheld = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: - Doing what the replay decided

    private func perform(_ actions: [WebSocketReplay.Action], context: ChannelHandlerContext) {
        let allocator = context.channel.allocator
        for action in actions {
            switch action {
            case .send(let kind, let payload):
                transcript.add(.server, kind, payload, at: elapsed(context))
                context.write(wrapOutboundOut(.server(kind == .text ? .text : .binary, payload, allocator: allocator)), promise: nil)
            case .close(let code, let reason):
                transcript.closed(by: .server, code: code, reason: reason, at: elapsed(context))
                context.write(wrapOutboundOut(.close(code: code, reason: reason, allocator: allocator)), promise: nil)
            case .missed(let miss):
                plan.report(miss)
            case .closeConnection:
                context.flush()
                context.close(promise: nil)
                cancelWakeUp()
                return
            }
        }
        if !actions.isEmpty { context.flush() }
        followDeadline(context: context)
    }

    /// Closes with `code`: a close frame saying `reason`, then the connection once it is written.
    private func fail(code: UInt16, reason: String, context: ChannelHandlerContext) {
        guard !failed else { return }
        failed = true
        cancelWakeUp()
        transcript.closed(by: .server, code: code, reason: reason, at: elapsed(context))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.close(code: code, reason: reason, allocator: channel.allocator)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    private func elapsed(_ context: ChannelHandlerContext) -> Duration {
        .nanoseconds((context.eventLoop.now - openedAt).nanoseconds)
    }

    private func followDeadline(context: ChannelHandlerContext) {
        let deadline = replay.deadline
        guard deadline != wakeUp?.deadline else { return }
        cancelWakeUp()
        guard let deadline else { return }
        let at = openedAt + .nanoseconds(TonearmServer.nanoseconds(deadline))
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: at) { [self] in
            wakeUp = nil
            perform(replay.advance(to: max(deadline, elapsed(context))), context: context)
        }
        wakeUp = (deadline, task)
    }

    private func cancelWakeUp() {
        wakeUp?.task.cancel()
        wakeUp = nil
    }
}
