// The WebSocket load client of scripts/bench-websockets.sh: sockets each sending a message and awaiting
// its answer, again and again.
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

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

func webSocketLoad(url: String, connections: Int, seconds: Int, message: String) throws {
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
