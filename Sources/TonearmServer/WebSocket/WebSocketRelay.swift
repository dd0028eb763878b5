import NIOCore
import NIOWebSocket
import Tonearm

/// A WebSocket being recorded: the client's socket and the upstream's, relayed message by message
/// (each reassembled, then sent whole), with the conversation kept as it goes, times counted from the
/// upstream's `101`. Both ends live on one event loop, so it needs no lock.
///
/// Pings are answered at each end, not relayed (the conversation keeps messages only). The first close
/// is recorded and passed on, and answered at its end; the connection of an end that does not answer a
/// close passed to it is closed after ``WebSocketReplay/closeGrace``. When either connection ends, the
/// conversation is complete and handed to `finish` once.
///
/// Back-pressure: an end whose peer is not taking what is written (not writable) is not read from, so a
/// client or an upstream flooding messages the other end cannot take holds one read.
final class WebSocketRelay {
    private let client: WebSocketRelayEnd
    private let upstream: WebSocketRelayEnd
    private let loop: any EventLoop
    private let openedAt: NIODeadline
    private var messages: [WebSocketConversation.Message] = []
    private var close: WebSocketConversation.Close?
    private var finished = false
    private let finish: (WebSocketConversation) -> Void

    init(client: WebSocketRelayEnd, upstream: WebSocketRelayEnd, loop: any EventLoop, openedAt: NIODeadline, finish: @escaping (WebSocketConversation) -> Void) {
        self.client = client
        self.upstream = upstream
        self.loop = loop
        self.openedAt = openedAt
        self.finish = finish
    }

    private func end(_ side: WebSocketRelayEnd.Side) -> WebSocketRelayEnd { side == .client ? client : upstream }
    private func peer(of side: WebSocketRelayEnd.Side) -> WebSocketRelayEnd { side == .client ? upstream : client }

    private var offset: Duration { .nanoseconds((loop.now - openedAt).nanoseconds) }

    /// What `side`'s frames amounted to.
    func received(_ output: WebSocketFrameAssembler.Output, from side: WebSocketRelayEnd.Side) {
        let sender: WebSocketConversation.Sender = side == .client ? .client : .server
        switch output {
        case .none, .pong:
            break
        case .message(let kind, let payload):
            // After a close, an end sends no more data (RFC 6455 §5.5.1): anything that comes is dropped.
            guard close == nil else { return }
            messages.append(WebSocketConversation.Message(sender, kind, payload: payload, offset: offset))
            peer(of: side).send(kind, payload)
        case .ping(let payload):
            end(side).sendPong(payload)
        case .close(let code, let reason):
            guard close == nil else {
                // The answer to the close passed to this end: its connection can go.
                return end(side).closeConnection()
            }
            close = WebSocketConversation.Close(sender, code: code, reason: reason, offset: offset)
            peer(of: side).sendClose(code: code, reason: reason)
            end(side).sendClose(code: code, reason: "")
            end(side).closeConnectionAfterWrites()
            closeIfUnanswered(peer(of: side))
        case .violation(let code, let reason):
            end(side).sendClose(code: code, reason: reason)
            end(side).closeConnectionAfterWrites()
            if close == nil {
                close = WebSocketConversation.Close(.server, code: 1001, reason: "the other end broke the protocol", offset: offset)
                peer(of: side).sendClose(code: 1001, reason: "the other end broke the protocol")
                closeIfUnanswered(peer(of: side))
            }
        }
    }

    /// `side`'s connection ended: the conversation is over; the other end is told (going away) if no
    /// close was exchanged.
    func ended(_ side: WebSocketRelayEnd.Side) {
        if close == nil {
            peer(of: side).sendClose(code: 1001, reason: side == .client ? "the client went away" : "the upstream went away")
            closeIfUnanswered(peer(of: side))
        }
        guard !finished else { return }
        finished = true
        finish(WebSocketConversation(messages: messages, close: close))
    }

    /// `side` can take writes again: its peer may be read from.
    func writable(_ side: WebSocketRelayEnd.Side) {
        peer(of: side).resumeReading()
    }

    /// Whether `side`'s peer takes what is written to it.
    func peerIsWritable(_ side: WebSocketRelayEnd.Side) -> Bool {
        peer(of: side).isWritable
    }

    /// The server is stopping: both ends are told it is going away.
    func stop() {
        if close == nil { close = WebSocketConversation.Close(.server, code: 1001, reason: "tonearm is stopping", offset: offset) }
        for end in [client, upstream] {
            end.sendClose(code: 1001, reason: "tonearm is stopping")
            end.closeConnectionAfterWrites()
        }
    }

    private func closeIfUnanswered(_ end: WebSocketRelayEnd) {
        loop.assumeIsolated().scheduleTask(in: .nanoseconds(TonearmServer.nanoseconds(WebSocketReplay.closeGrace))) {
            end.closeConnection()
        }
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

    enum Side {
        case client, upstream
    }

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
