import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Tonearm

/// A real HTTP backend on 127.0.0.1 port 0 for the server to proxy to: answers with `respond`, counts
/// and keeps the requests it received (as seen on its wire).
final class TestUpstream: Sendable {
    let port: Int
    private let channel: any Channel
    private let log = RequestLog()

    /// `http://127.0.0.1:PORT`.
    var origin: String { "http://127.0.0.1:\(port)" }
    /// The value for `--host`, and the path component.
    var authority: String { "127.0.0.1:\(port)" }

    /// An upstream answering with `respond`, each answer sent `delay` after its request arrived (so that
    /// a test can have many requests in flight at once).
    init(delay: TimeAmount = .zero, respond: @escaping @Sendable (Request) -> Response = TestUpstream.echo) async throws {
        let log = self.log
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(UpstreamHandler(delay: delay, respond: respond, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The requests received so far.
    var requests: [Request] { log.requests.withLock { $0 } }

    func stop() async throws {
        try await channel.close()
    }

    /// Answers JSON naming the method, the target and the body.
    static let echo: @Sendable (Request) -> Response = { request in
        let body = #"{"method":"\#(request.method)","path":"\#(request.url)","body":"\#(String(decoding: request.body, as: UTF8.self))"}"#
        return Response(status: 200, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Set-Cookie", "a=1"), HeaderField("X-Trace", "a"), HeaderField("Set-Cookie", "b=2"), HeaderField("X-Trace", "b")], body: body)
    }
}

/// The requests an upstream received, shared by its connections.
final class RequestLog: Sendable {
    let requests = Mutex<[Request]>([])
}

private final class UpstreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let delay: TimeAmount
    let respond: @Sendable (Request) -> Response
    let log: RequestLog
    private var pending: Request?

    init(delay: TimeAmount, respond: @escaping @Sendable (Request) -> Response, log: RequestLog) {
        self.delay = delay
        self.respond = respond
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            pending = Request(method: head.method.rawValue, url: head.uri, headers: head.headers.map { HeaderField($0.name, $0.value) })
        case .body(let buffer):
            pending?.body += Array(buffer: buffer)
        case .end:
            guard let request = pending else { return }
            pending = nil
            log.requests.withLock { $0.append(request) }
            let response = respond(request)
            guard delay > .zero else { return Self.write(response, to: context) }
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) { Self.write(response, to: bound.value) }
        }
    }

    private static func write(_ response: Response, to context: ChannelHandlerContext) {
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
    }
}
