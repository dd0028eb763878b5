import NIOCore
import NIOHTTP1
import Tonearm

/// Executes a connection's ``ConnectionLifecycle``: feeds it the request parts it sees, the answers on
/// their way to the writer, the channel's writability and the server's events, with the event loop's
/// time; does what it decides; keeps one wake-up scheduled at its deadline; and tells the registry the
/// phase it is in.
///
/// It sits between the request decoder and ``HTTPConnectionHandler``, so it sees whole request parts
/// and each answer on its way to the writer.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = ResponseWrite
    typealias OutboundOut = ResponseWrite

    // The state is `@exclusivity(unchecked)`: the runtime's exclusivity check on each access cost about
    // 900 instructions a request here (docs/benchmarks.md, "CI: the request path's instruction and
    // allocation limits"). It cannot be violated: only this handler's methods touch these properties, on
    // the channel's event loop, and each access is a call to the lifecycle's own methods or a plain read
    // or write, which call nothing outside it; what the handler then does (fire, write, close) happens
    // after the access has ended.
    @exclusivity(unchecked) private var lifecycle: ConnectionLifecycle?
    private let limits: ConnectionLifecycle.Limits
    private let activity: ConnectionActivity
    private let registry: ConnectionRegistry
    /// The wake-up scheduled for the lifecycle's deadline, and that deadline.
    @exclusivity(unchecked) private var wakeUp: (deadline: NIODeadline, task: Scheduled<Void>)?
    @exclusivity(unchecked) private var published: ConnectionActivity.Phase = .awaitingHead

    init(configuration: ServerConfiguration, activity: ConnectionActivity, registry: ConnectionRegistry) {
        limits = ConnectionLifecycle.Limits(configuration)
        self.activity = activity
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lifecycle = ConnectionLifecycle(limits: limits, acceptedAt: context.eventLoop.now)
        followDeadline(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelWakeUp()
        lifecycle = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelWakeUp()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let passes: Bool
        switch unwrapInboundIn(data) {
        case .head(let head): passes = lifecycle?.headReceived(version: head.version) ?? false
        case .body(let chunk): passes = lifecycle?.bodyReceived(count: chunk.readableBytes) ?? false
        case .end: passes = lifecycle?.requestEnded() ?? false
        }
        guard passes else { return }
        settle(context: context)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        lifecycle?.readCompleted(now: context.eventLoop.now)
        settle(context: context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        lifecycle?.writabilityChanged(isWritable: context.channel.isWritable, now: context.eventLoop.now)
        settle(context: context)
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var write = unwrapOutboundIn(data)
        guard write.response.isFinal else { return context.write(data, promise: promise) }
        if lifecycle?.answerWritten(keepsAlive: write.response.ending == .keepAlive) == true {
            // The last answer awaited says `Connection: close`, and nothing read after it is answered.
            write.response.ending = .close
        }
        guard case .parts(_, .dribbled, _) = write.response.message else {
            context.write(wrapOutboundOut(write), promise: promise)
            return answerEnded(context: context)
        }
        // A dribbled answer ends with its last part: until then the server holds the client.
        let written = context.eventLoop.makePromise(of: Void.self)
        if let promise { written.futureResult.cascade(to: promise) }
        written.futureResult.assumeIsolated().whenComplete { [self] _ in answerEnded(context: context) }
        context.write(wrapOutboundOut(write), promise: written)
    }

    private func answerEnded(context: ChannelHandlerContext) {
        lifecycle?.answerEnded(now: context.eventLoop.now)
        settle(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let action: ConnectionLifecycle.Action?
        switch event {
        case is IdleStateHandler.IdleStateEvent: action = lifecycle?.idleTimedOut(isWritable: context.channel.isWritable)
        case is ServerStopping: action = lifecycle?.serverStopping()
        case is ShedConnection: action = lifecycle?.shed()
        default: return context.fireUserInboundEventTriggered(event)
        }
        perform(action ?? .none, context: context)
    }

    /// Does what the lifecycle decided, then follows its deadline and publishes its phase.
    private func perform(_ action: ConnectionLifecycle.Action, context: ChannelHandlerContext) {
        switch action {
        case .none:
            break
        case .close:
            context.close(promise: nil)
        case .answerAndClose(let status, let message, let version):
            context.fireUserInboundEventTriggered(AnswerAndClose(response: ServerCore.plainText(status, message), version: version))
        }
        settle(context: context)
    }

    /// After any event: the wake-up follows the lifecycle's deadline, and the registry its phase.
    private func settle(context: ChannelHandlerContext) {
        followDeadline(context: context)
        publish()
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

    /// Tells the registry what this connection is doing, when that changed.
    private func publish() {
        guard let phase = lifecycle?.phase, phase != published else { return }
        published = phase
        let word = activity.enter(phase)
        if phase != .busy { registry.noteSheddable(activity, word: word) }
    }
}
