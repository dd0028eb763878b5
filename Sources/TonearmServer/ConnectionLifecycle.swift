import NIOCore
import NIOHTTP1
import Synchronization

/// Sent through every connection's pipeline when the server stops accepting.
struct ServerStopping: Sendable {}

/// The open connections, so stopping can close the idle ones and let busy ones finish their exchange.
final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var stopping = false
    }

    private let state = Mutex(State())

    /// Adds `channel`; `false` when the server is already stopping (the caller closes it).
    func register(_ channel: any Channel) -> Bool {
        let added = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
        if added {
            channel.closeFuture.whenComplete { [self] _ in
                _ = state.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
            }
        }
        return added
    }

    /// Tells every open connection the server is stopping, and returns them; no connection is
    /// registered from now on.
    func stop() -> [any Channel] {
        let channels = state.withLock { state in
            state.stopping = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(ServerStopping()) }
        return channels
    }
}

/// Closes a connection that is idle: silent past the idle timeout, or open when the server stops, but
/// never while its request is being answered (a replayed delay may be long). A connection busy when the
/// server stops is closed right after its response, with `Connection: close` on it.
///
/// It sits between the HTTP codec and ``HTTPConnectionHandler``, so it sees whole request and response parts.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Complete requests waiting for their responses (more than one when a client pipelines).
    private var awaitingResponses = 0
    private var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { awaitingResponses += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where closeAfterResponse && head.status.code >= 200:
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            awaitingResponses = max(0, awaitingResponses - 1)
            if closeAfterResponse && awaitingResponses == 0 {
                let channel = context.channel
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.cascade(to: promise)
                context.writeAndFlush(data, promise: written)
                written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.write(data, promise: promise)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is IdleStateHandler.IdleStateEvent, is ServerStopping:
            if awaitingResponses > 0 { closeAfterResponse = true } else { context.close(promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }
}
