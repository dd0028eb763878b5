import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket

/// The handlers that serve HTTP on a connection, the same for the plain listener, the HTTPS listener
/// and an intercepted `CONNECT` tunnel: only the TLS in front of them and the origin their requests
/// stand for differ, so every request takes the one path (``ServerCore/begin(_:)``).
struct HTTPPipeline: Sendable {
    let core: ServerCore
    let connections: ConnectionRegistry
    let idleTimeout: TimeAmount

    /// Adds the handlers to `channel`: `tls` terminated first when given, and origin-form targets read as
    /// URLs of `origin` when given (the requests of a tunnel to `https://api.example.com`).
    ///
    /// The head deadline (``ServerConfiguration/Limits/headerTimeout``) counts from here, so it bounds a TLS
    /// handshake that never completes as it bounds a head that never arrives.
    func configure(_ channel: any Channel, activity: ConnectionActivity, tls: NIOSSLContext?, origin: UpstreamHost?) throws {
        let pipeline = channel.pipeline.syncOperations
        if let tls {
            try pipeline.addHandler(NIOSSLServerHandler(context: tls))
            try pipeline.addHandler(TLSFailureLog(log: core.configuration.log, serverName: origin?.hostName))
        }
        try pipeline.addHandler(IdleStateHandler(readTimeout: idleTimeout))
        // Not `configureHTTPServerPipeline`: its encoder would be a second way to write answers, and its
        // decoder would tell that encoder each request's method. ``ResponseWriter`` frames and writes
        // every answer; the decoder only reads.
        let rewrites = MethodRewrites()
        try pipeline.addHandler(CustomMethodRewriter(rewrites: rewrites))
        try pipeline.addHandler(ResponseWriter(log: core.configuration.log, wakeups: core.pacedWakeups))
        // Bytes that came behind an upgrade's head (a client's first WebSocket frame) go to the socket's
        // handlers when the parser is removed.
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        try pipeline.addHandler(HTTPConnectionHandler(
            core: core, pipeline: self, activity: activity, registry: connections, origin: origin, rewrites: rewrites))
    }

    /// Sets up a newly accepted `channel` as ``ConnectionRegistry/admission(ofNew:)`` says: its handlers
    /// added (and told it is shed, when it was chosen to make room before they existed), or closed.
    func configureAccepted(_ channel: any Channel, tls: NIOSSLContext?) -> EventLoopFuture<Void> {
        let activity: ConnectionActivity
        let shed: Bool
        switch connections.admission(ofNew: channel) {
        case .admitted(let admitted): (activity, shed) = (admitted, false)
        case .shed(let admitted): (activity, shed) = (admitted, true)
        case .refused: return channel.close()
        }
        return channel.eventLoop.makeCompletedFuture {
            try configure(channel, activity: activity, tls: tls, origin: nil)
            if shed { channel.pipeline.fireUserInboundEventTriggered(ShedConnection()) }
        }
    }

    /// Turns `channel`, whose WebSocket handshake was answered 101, into a socket running `plan`: the HTTP
    /// handlers go, the frame decoder and encoder and the plan's handler come after the parser, and the
    /// parser goes last, handing them any frame that arrived with the handshake. Called on the
    /// channel's event loop once the 101 is written, outside any handler's read.
    func upgradeToWebSocket(_ channel: any Channel, plan: WebSocketPlan) {
        do {
            let pipeline = channel.pipeline.syncOperations
            let frameLimit = min(plan.maximumMessageSize, Int(UInt32.max))
            let player: any ChannelHandler
            var startRelay: (() -> Void)?
            switch plan.play {
            case .replay(let replay):
                player = WebSocketReplayHandler(replay: replay, plan: plan)
            case .relay(let upstream, let record):
                // The upstream's connection was opened on this connection's loop (the answering task runs
                // there), so the relay's two ends share one thread.
                guard upstream.channel.eventLoop === channel.eventLoop else {
                    core.configuration.log("tonearm: the upstream WebSocket is on another event loop; closing both")
                    upstream.channel.close(promise: nil)
                    return channel.close(promise: nil)
                }
                let client = WebSocketRelayEnd(side: .client, maximumMessageSize: plan.maximumMessageSize)
                let upstreamEnd = upstream.end.value
                player = client
                startRelay = {
                    let relay = WebSocketRelay(
                        client: client, upstream: upstreamEnd, loop: channel.eventLoop, openedAt: channel.eventLoop.now,
                        recordingLimit: plan.maximumMessageSize,
                        finish: { conversation, cut in
                            record(conversation, cut)
                            plan.ended(conversation)
                        })
                    client.attach(relay)
                    upstreamEnd.attach(relay)
                }
            }
            // An open socket has no idle deadline: a chat can be quiet for minutes.
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: IdleStateHandler.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: HTTPConnectionHandler.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: CustomMethodRewriter.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ResponseWriter.self))
            // The player may send as it is added (a greeting due at once): the HTTP writer is gone by then.
            try pipeline.addHandlers([ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: frameLimit)), WebSocketFrameEncoder(), player])
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self))
            startRelay?()
        } catch {
            if case .relay(let upstream, _) = plan.play { upstream.channel.close(promise: nil) }
            core.configuration.log("tonearm: cannot open the WebSocket: \(error)")
            channel.close(promise: nil)
        }
    }

    /// Turns `channel`, whose `CONNECT` to `host` was answered 200, into a tunnel: the plain HTTP handlers
    /// go (their parser is spent on the CONNECT), and ``configure(_:activity:tls:origin:)`` adds them
    /// again, behind TLS presenting a leaf for `host` when it is `https`, as they are for `http`. Called
    /// on the channel's event loop once the 200 is written, outside any handler's read.
    func intercept(_ channel: any Channel, host: UpstreamHost, activity: ConnectionActivity) {
        let log = core.configuration.log
        do {
            // A plain tunnel (an `http` host) has no TLS to terminate.
            var context: NIOSSLContext?
            if host.scheme == "https" {
                guard let interception = core.tls.interception else { return channel.close(promise: nil) }
                context = try interception.context(for: host.hostName)
            }
            let pipeline = channel.pipeline.syncOperations
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: HTTPConnectionHandler.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: CustomMethodRewriter.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ResponseWriter.self))
            _ = pipeline.removeHandler(context: try pipeline.context(handlerType: IdleStateHandler.self))
            try configure(channel, activity: activity, tls: context, origin: host)
        } catch {
            log("tonearm: cannot intercept the tunnel to \(host.origin): \(error)")
            channel.close(promise: nil)
        }
    }
}
