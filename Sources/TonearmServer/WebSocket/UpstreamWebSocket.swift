import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Tonearm
import TonearmReplay

/// The upstream's side of a WebSocket being recorded: a connection of its own (TLS for `https`, that is
/// `wss`), opened with the client's handshake, on the client connection's event loop so that relaying
/// between the two never crosses threads. AsyncHTTPClient cannot upgrade a connection, so this is
/// NIO's HTTP client codec for the handshake, then its frame codec.
struct UpstreamWebSocket: Sendable {
    /// What the upstream made of the handshake.
    enum Opening: Sendable {
        /// It accepted (`101`, with `head`): the socket is open, its messages held until relayed.
        case upgraded(UpstreamWebSocket, head: Response)
        /// It answered something else (a 403, a redirect): a plain exchange, recorded and answered as one.
        case answered(Response)
    }

    let channel: any Channel
    /// The handler reading the upstream's frames, which holds what arrives before the relay starts.
    let end: NIOLoopBound<WebSocketRelayEnd>

    /// Opens `request` (absolute `http`/`https` URL; the handshake's fields: its key, version and any
    /// subprotocols; no extension offers) on `loop`, within `timeout` for the answer's head and body.
    static func open(
        _ request: Request, on loop: any EventLoop, tls: TLSConfiguration, timeout: Duration, maximumMessageSize: Int
    ) async throws(UpstreamClient.Failure) -> Opening {
        guard let host = UpstreamHost(ofURL: request.url) else {
            throw UpstreamClient.Failure(status: 502, message: "no upstream host in \(request.url)")
        }
        let secure = host.scheme == "https"
        let port = Self.port(of: host)
        let answer = loop.makePromise(of: UpstreamHandshakeHandler.Answer.self)
        do {
            let context = secure ? try NIOSSLContext(configuration: tls) : nil
            let channel = try await ClientBootstrap(group: loop)
                .connectTimeout(.seconds(10))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let context {
                            let serverName = host.hostName.contains(":") || host.hostName.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host.hostName
                            try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        }
                        try pipeline.addHandler(HTTPRequestEncoder())
                        // Frames the upstream sends with its 101 go to the socket's handler when the parser is removed.
                        try pipeline.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)))
                        try pipeline.addHandler(UpstreamHandshakeHandler(answer: answer, maximumBodySize: maximumMessageSize))
                    }
                }
                .connect(host: host.hostName, port: port).get()
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: Self.target(of: request.url))
            head.headers.add(name: "Host", value: host.authority)
            for field in request.headers where !field.name.equalsIgnoringASCIICase("host") {
                head.headers.add(name: field.name, value: field.value)
            }
            head.headers.add(name: "Upgrade", value: "websocket")
            head.headers.add(name: "Connection", value: "Upgrade")
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            let timer = LoopTimer(group: loop)
            let result: UpstreamHandshakeHandler.Answer
            do {
                result = try await withDeadline(timeout, sleep: timer.sleep(for:)) { try await answer.futureResult.get() }
            } catch {
                channel.close(promise: nil)
                throw error
            }
            switch result {
            case .answered(let response):
                channel.close(promise: nil)
                return .answered(response)
            case .switching(let response):
                let end = try await loop.submit {
                    try Self.becomeSocket(channel, maximumMessageSize: maximumMessageSize)
                }.get()
                return .upgraded(UpstreamWebSocket(channel: channel, end: end), head: response)
            }
        } catch let failure as UpstreamClient.Failure {
            throw failure
        } catch is DeadlineExceeded {
            throw UpstreamClient.Failure(status: 504, message: "upstream \(host.origin) did not answer the WebSocket handshake within \(timeout) (--upstream-timeout)")
        } catch {
            answer.fail(error)
            throw UpstreamClient.Failure(status: 502, message: "upstream \(host.origin) could not be reached for a WebSocket: \(error)")
        }
    }

    /// The HTTP handlers go and the frame codec comes, the parser last so that frames sent with the
    /// `101` reach the socket's handler.
    private static func becomeSocket(_ channel: any Channel, maximumMessageSize: Int) throws -> NIOLoopBound<WebSocketRelayEnd> {
        let pipeline = channel.pipeline.syncOperations
        let end = WebSocketRelayEnd(side: .upstream, maximumMessageSize: maximumMessageSize)
        _ = pipeline.removeHandler(context: try pipeline.context(handlerType: UpstreamHandshakeHandler.self))
        _ = pipeline.removeHandler(context: try pipeline.context(handlerType: HTTPRequestEncoder.self))
        try pipeline.addHandlers([
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: min(maximumMessageSize, Int(UInt32.max)))), WebSocketFrameEncoder(), end,
        ])
        _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ByteToMessageHandler<HTTPResponseDecoder>.self))
        return NIOLoopBound(end, eventLoop: channel.eventLoop)
    }

    private static func port(of host: UpstreamHost) -> Int {
        if !host.authority.hasSuffix("]"), let colon = host.authority.lastIndex(of: ":"),
            let port = Int(host.authority[host.authority.index(after: colon)...])
        {
            return port
        }
        return host.scheme == "https" ? 443 : 80
    }

    /// The origin-form target (`/path?query`) of an absolute URL.
    private static func target(of url: String) -> String {
        guard let separator = url.range(of: "://") else { return url }
        let rest = url[separator.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let target = String(rest[slash...])
        return target.hasPrefix("?") ? "/" + target : target
    }
}

/// Reads the upstream's answer to the handshake: a `101`'s head, or any other answer whole (within the
/// body limit), for the upstream WebSocket to act on.
final class UpstreamHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    enum Answer: Sendable {
        case switching(Response)
        case answered(Response)
    }

    private let answer: EventLoopPromise<Answer>
    private let maximumBodySize: Int
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(answer: EventLoopPromise<Answer>, maximumBodySize: Int) {
        self.answer = answer
        self.maximumBodySize = maximumBodySize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var chunk):
            guard body.count + chunk.readableBytes <= maximumBodySize else {
                answer.fail(UpstreamClient.Failure(status: 502, message: "the upstream's answer to a WebSocket handshake passed the body limit"))
                return context.close(promise: nil)
            }
            body += chunk.readBytes(length: chunk.readableBytes) ?? []
        case .end:
            guard let head else { return }
            let response = Response(
                status: Int(head.status.code), headers: head.headers.map { HeaderField($0.name, $0.value) }, body: body)
            answer.succeed(head.status == .switchingProtocols ? .switching(response) : .answered(response))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        answer.fail(UpstreamClient.Failure(status: 502, message: "the upstream closed the connection during the WebSocket handshake"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answer.fail(error)
        context.close(promise: nil)
    }
}
