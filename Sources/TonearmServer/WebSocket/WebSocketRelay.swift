import NIOCore
import NIOWebSocket
import Tonearm

/// A WebSocket being recorded: the client's socket and the upstream's, relayed message by message
/// (each reassembled, then sent whole), with the conversation kept as it goes, times counted from the
/// upstream's `101`. What happens is ``WebSocketRelayState``'s decision; the relay feeds it what the
/// ends read, executes its actions and wakes it at its ``WebSocketRelayState/deadline`` (a close's
/// grace). Both ends live on one event loop, so it needs no lock.
///
/// Back-pressure: an end whose peer is not taking what is written (not writable) is not read from, so a
/// client or an upstream flooding messages the other end cannot take holds one read.
final class WebSocketRelay {
    private let client: WebSocketRelayEnd
    private let upstream: WebSocketRelayEnd
    private let loop: any EventLoop
    private let openedAt: NIODeadline
    private var state: WebSocketRelayState
    private let finish: (WebSocketConversation, _ cut: String?) -> Void
    /// The timer set for the state's deadline, and that deadline.
    private var wakeUp: (deadline: Duration, task: Scheduled<Void>)?

    init(
        client: WebSocketRelayEnd, upstream: WebSocketRelayEnd, loop: any EventLoop, openedAt: NIODeadline, recordingLimit: Int,
        finish: @escaping (WebSocketConversation, _ cut: String?) -> Void
    ) {
        state = WebSocketRelayState(recordingLimit: recordingLimit)
        self.client = client
        self.upstream = upstream
        self.loop = loop
        self.openedAt = openedAt
        self.finish = finish
    }

    private func end(_ side: WebSocketRelayState.Side) -> WebSocketRelayEnd { side == .client ? client : upstream }

    private var offset: Duration { .nanoseconds((loop.now - openedAt).nanoseconds) }

    /// What `side`'s frames amounted to.
    func received(_ output: WebSocketFrameAssembler.Output, from side: WebSocketRelayState.Side) {
        perform(state.received(output, from: side, at: offset))
    }

    /// `side`'s connection ended.
    func ended(_ side: WebSocketRelayState.Side) {
        perform(state.ended(side, at: offset))
    }

    /// `side` can take writes again: its peer may be read from.
    func writable(_ side: WebSocketRelayState.Side) {
        end(side.peer).resumeReading()
    }

    /// Whether `side`'s peer takes what is written to it.
    func peerIsWritable(_ side: WebSocketRelayState.Side) -> Bool {
        end(side.peer).isWritable
    }

    /// The server is stopping: both ends are told it is going away.
    func stop() {
        perform(state.stop(at: offset))
    }

    private func perform(_ actions: [WebSocketRelayState.Action]) {
        for action in actions {
            switch action {
            case .send(let side, let kind, let payload): end(side).send(kind, payload)
            case .pong(let side, let payload): end(side).sendPong(payload)
            case .sendClose(let side, let code, let reason): end(side).sendClose(code: code, reason: reason)
            case .closeConnectionAfterWrites(let side): end(side).closeConnectionAfterWrites()
            case .closeConnection(let side): end(side).closeConnection()
            case .finish(let conversation, let cut): finish(conversation, cut)
            }
        }
        followDeadline()
    }

    /// Sets the one timer at the state's deadline (none when it has none).
    private func followDeadline() {
        let deadline = state.deadline
        guard deadline != wakeUp?.deadline else { return }
        wakeUp?.task.cancel()
        wakeUp = nil
        guard let deadline else { return }
        let task = loop.assumeIsolated().scheduleTask(deadline: openedAt + .nanoseconds(TonearmServer.nanoseconds(deadline))) { [self] in
            wakeUp = nil
            perform(state.advance(to: max(deadline, offset)))
        }
        wakeUp = (deadline, task)
    }
}

/// One end of a relayed WebSocket (``WebSocketRelay``): the client's connection, or the upstream's. It
/// reassembles the frames it reads and writes whole messages; the upstream's end masks what it sends,
/// as a client must. Until the relay starts (the upstream's end exists before the client's upgrade is
/// answered) it holds what it reads and reads no more.
final class WebSocketRelayEnd: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    typealias Side = WebSocketRelayState.Side

    let side: Side
    private var assembler: WebSocketFrameAssembler
    private var context: ChannelHandlerContext?
    private var relay: WebSocketRelay?
    private var held: [WebSocketFrameAssembler.Output] = []
    private var endedBeforeRelay = false
    private var readWithheld = false
    private var closeSent = false
    private var closeWritten: EventLoopFuture<Void>?

    init(side: Side, maximumMessageSize: Int) {
        self.side = side
        assembler = WebSocketFrameAssembler(maximumMessageSize: maximumMessageSize, peerIsClient: side == .client)
    }

    /// Starts relaying through `relay`: what was held first.
    func attach(_ relay: WebSocketRelay) {
        self.relay = relay
        let held = self.held
        self.held = []
        for output in held { relay.received(output, from: side) }
        if endedBeforeRelay { relay.ended(side) }
        resumeReading()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let output = assembler.received(unwrapInboundIn(data))
        if output == .none { return }
        guard let relay else { return held.append(output) }
        relay.received(output, from: side)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let relay { relay.ended(side) } else { endedBeforeRelay = true }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The frame decoder's refusals: a frame over the size limit, or a malformed control frame.
        guard let error = error as? NIOWebSocketError else { return context.close(promise: nil) }
        let violation = WebSocketFrameAssembler.violation(for: error)
        guard let relay else { return held.append(violation) }
        relay.received(violation, from: side)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ServerStopping: relay?.stop()
        case is ShutdownDeadlinePassed: context.close(promise: nil)
        default: context.fireUserInboundEventTriggered(event)
        }
    }

    func read(context: ChannelHandlerContext) {
        guard let relay, relay.peerIsWritable(side) else {
            readWithheld = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { relay?.writable(side) }
        context.fireChannelWritabilityChanged()
    }

    // MARK: - Called by the relay

    var isWritable: Bool { context?.channel.isWritable ?? true }

    func resumeReading() {
        guard readWithheld, let context else { return }
        readWithheld = false
        context.read()
    }

    func send(_ kind: WebSocketConversation.Message.Kind, _ payload: [UInt8]) {
        guard let context, !closeSent else { return }
        let frame = WebSocketFrame(
            fin: true, opcode: kind == .text ? .text : .binary, maskKey: side == .upstream ? .random() : nil,
            data: context.channel.allocator.buffer(bytes: payload))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func sendPong(_ payload: [UInt8]) {
        guard let context, !closeSent else { return }
        let frame = WebSocketFrame(
            fin: true, opcode: .pong, maskKey: side == .upstream ? .random() : nil, data: context.channel.allocator.buffer(bytes: payload))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func sendClose(code: UInt16?, reason: String) {
        guard let context, !closeSent else { return }
        closeSent = true
        closeWritten = context.writeAndFlush(
            wrapOutboundOut(.close(code: code, reason: reason, masked: side == .upstream, allocator: context.channel.allocator)))
    }

    /// Closes the connection once the close frame sent to it is written (at once when none was).
    func closeConnectionAfterWrites() {
        guard let context else { return }
        let channel = context.channel
        guard let closeWritten else { return channel.close(promise: nil) }
        closeWritten.whenComplete { _ in channel.close(promise: nil) }
    }

    func closeConnection() {
        context?.close(promise: nil)
    }
}
