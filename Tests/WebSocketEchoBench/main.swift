// scripts/bench-websockets.sh's two sides, on NIO alone:
//
//   WebSocketEchoBench echo-server          a plain NIO WebSocket echo server (NIO's server upgrader, one
//                                           event loop): every text or binary message sent back; prints its port
//   WebSocketEchoBench load URL CONNECTIONS SECONDS MESSAGE
//                                           CONNECTIONS sockets to URL (ws://127.0.0.1:PORT/path), each
//                                           sending MESSAGE and awaiting an answer, again and again, for
//                                           SECONDS; prints one JSON line: messages a second, latency p50/p99
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

let arguments = CommandLine.arguments
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// Sends every message back.
final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: frame.opcode, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)))
                .whenComplete { _ in channel.close(promise: nil) }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        default:
            break
        }
    }
}

func echoServer() throws {
    let upgrader = NIOWebSocketServerUpgrader(
        maxFrameSize: 1 << 24, shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
        upgradePipelineHandler: { channel, _ in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(EchoHandler()) }
        })
    let channel = try ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 1024)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        }
        .bind(host: "127.0.0.1", port: 0).wait()
    FileHandle.standardOutput.write(Data("\(channel.localAddress?.port ?? 0)\n".utf8))
    try channel.closeFuture.wait()
}

/// One load connection: sends, awaits the answer, notes the round trip, sends again until told to stop.
final class LoadHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let message: [UInt8]
    let startAt: NIODeadline
    let stopAt: NIODeadline
    var sentAt = NIODeadline.now()
    var latencies: [Int64] = []
    let done: EventLoopPromise<[Int64]>

    init(message: [UInt8], startAt: NIODeadline, stopAt: NIODeadline, done: EventLoopPromise<[Int64]>) {
        self.message = message
        self.startAt = startAt
        self.stopAt = stopAt
        self.done = done
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Every connection starts at once, when all are open.
        context.eventLoop.assumeIsolated().scheduleTask(deadline: startAt) { self.send(context) }
    }

    func send(_ context: ChannelHandlerContext) {
        sentAt = .now()
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: context.channel.allocator.buffer(bytes: message))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.opcode == .text || frame.opcode == .binary else { return }
        let now = NIODeadline.now()
        latencies.append((now - sentAt).nanoseconds)
        if now < stopAt { send(context) } else { done.succeed(latencies); context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.succeed(latencies)
    }
}

func load(url: String, connections: Int, seconds: Int, message: String) throws {
    guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else { throw ChannelError.badInterfaceAddressFamily }
    let path = parsed.path.isEmpty ? "/" : parsed.path
    let clients = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let start = NIODeadline.now() + .milliseconds(500)
    let stopAt = start + .seconds(Int64(seconds))
    var results: [EventLoopFuture<[Int64]>] = []
    for _ in 0..<connections {
        let loop = clients.next()
        let done = loop.makePromise(of: [Int64].self)
        let bytes = Array(message.utf8)
        let upgrader = NIOWebSocketClientUpgrader(
            maxFrameSize: 1 << 24,
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LoadHandler(message: bytes, startAt: start, stopAt: stopAt, done: done))
                }
            })
        let channel = try ClientBootstrap(group: loop)
            .channelInitializer { channel in
                let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": "\(host):\(port)"])
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(InitialRequest(head: request))
                }
            }
            .connect(host: host, port: port).wait()
        _ = channel
        results.append(done.futureResult)
    }
    var all: [Int64] = []
    for result in results { all += try result.wait() }
    all.sort()
    func percentile(_ p: Double) -> Double {
        all.isEmpty ? 0 : Double(all[min(all.count - 1, Int(Double(all.count) * p))]) / 1_000
    }
    print(#"{"connections": \#(connections), "messages": \#(all.count), "messagesPerSecond": \#(Int(Double(all.count) / Double(seconds))), "p50Microseconds": \#(Int(percentile(0.5))), "p99Microseconds": \#(Int(percentile(0.99)))}"#)
}

/// Sends the upgrade request once the connection is up.
final class InitialRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart
    let head: HTTPRequestHead

    init(head: HTTPRequestHead) {
        self.head = head
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }
}

switch arguments.dropFirst().first {
case "echo-server":
    try echoServer()
case "load" where arguments.count == 6:
    try load(url: arguments[2], connections: max(1, Int(arguments[3]) ?? 1), seconds: max(1, Int(arguments[4]) ?? 5), message: arguments[5])
default:
    FileHandle.standardError.write(Data("usage: WebSocketEchoBench echo-server | load URL CONNECTIONS SECONDS MESSAGE\n".utf8))
    exit(2)
}
