import NIOCore

/// Counts each accepted connection against ``ServerConfiguration/Limits/maximumConnections`` on the listener's
/// event loop, in accept order, before the connection is handed to a child event loop.
///
/// It sits in the listening channel's pipeline ahead of the bootstrap's own acceptor, which then registers
/// the connection and runs its initializer; the initializer closes a connection the registry refused, and
/// answers one it has shed since (``ConnectionRegistry/admission(ofNew:)``).
final class ConnectionAdmission: ChannelInboundHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let registry: ConnectionRegistry

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        registry.admit(unwrapInboundIn(data))
        context.fireChannelRead(data)
    }
}
