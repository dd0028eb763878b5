import NIOCore
import NIOSSL
import NIOTLS

/// Logs why a TLS handshake failed (a client that does not trust the CA, bytes that are not TLS, a
/// server name the tunnel does not serve), once, then lets the connection close: the server log is
/// where a user looks when a client reports only "handshake failure".
final class TLSFailureLog: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let log: @Sendable (String) -> Void
    /// The tunnel's host, or `nil` on the HTTPS listener.
    private let serverName: String?
    private var handshakeDone = false

    init(log: @escaping @Sendable (String) -> Void, serverName: String?) {
        self.log = log
        self.serverName = serverName
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            handshakeDone = true
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !handshakeDone {
            let peer = context.channel.remoteAddress.map { " with \($0.ipAddress ?? "a client"):\($0.port ?? 0)" } ?? ""
            let place = serverName.map { " in the tunnel to \($0)" } ?? " on the HTTPS port"
            log("tonearm: TLS handshake\(peer)\(place) failed: \(error)")
            handshakeDone = true
        }
        context.fireErrorCaught(error)
    }
}
