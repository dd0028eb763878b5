// The Server-Sent Events client of scripts/bench-streams.sh: many paced replays read at once, each
// event's arrival compared with its recorded time on the stream's own schedule.
//
// A native client on one event loop (its own core under taskset): the Python asyncio client this
// replaced took about 18 ms to read 1,000 sockets whose events fell due together, so it measured
// itself as much as the server.
import Foundation
import NIOCore
import NIOPosix

/// What every stream's reader adds to.
///
/// `@unchecked Sendable`: created before the client's one event loop starts its streams and touched
/// only on that loop afterwards (the readers' callbacks, and the final read submitted to it).
final class PacingErrors: @unchecked Sendable {
    /// Each event's error in nanoseconds: how late it came against the stream's own schedule, anchored
    /// at its least late event (arrival minus recorded time, smallest over the stream: the server never
    /// sends early, so that event shows where the schedule began). A late event counts as itself only;
    /// measured from the first event instead, a late first event would make every later one look late.
    /// The anchoring event is not counted: each stream gives one error fewer than it has events.
    var errors: [Int64] = []
    /// The same errors by the event's place in its stream (which part of a run is late: the start, while
    /// the server still accepts the other streams, or every burst).
    var errorsByEvent: [Int: [Int64]] = [:]
    var answeredOK = 0
    var finished = 0
}

/// Reads one stream: the head, then counts events (blank-line separated) as bytes arrive, noting the
/// time of each read that completes one.
final class ServerSentEventsReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: ByteBuffer
    private let offsets: [Int64]
    private let results: PacingErrors
    private let streamEnded: EventLoopPromise<Void>
    private var head: [UInt8] = []
    private var headRead = false
    /// The last two bytes of the body seen, to find "\n\n" across reads.
    private var lastTwo: (UInt8, UInt8) = (0, 0)
    private var seen = 0
    /// Each event's arrival minus its recorded time.
    private var lateness: [Int64] = []

    init(request: ByteBuffer, offsets: [Int64], results: PacingErrors, streamEnded: EventLoopPromise<Void>) {
        self.request = request
        self.offsets = offsets
        self.results = results
        self.streamEnded = streamEnded
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let now = NIODeadline.now()
        var buffer = unwrapInboundIn(data)
        guard let bytes = buffer.readBytes(length: buffer.readableBytes) else { return }
        var body = bytes[...]
        if !headRead {
            head += bytes
            guard let end = headEnd() else { return }
            headRead = true
            if head.starts(with: Array("HTTP/1.1 200".utf8)) { results.answeredOK += 1 }
            body = head[end...]
        }
        for byte in body {
            if byte == 0x0A, lastTwo.1 == 0x0A || (lastTwo.1 == 0x0D && lastTwo.0 == 0x0A) {
                eventCompleted(at: now)
            }
            lastTwo = (lastTwo.1, byte)
        }
        if seen == offsets.count { context.close(promise: nil) }
    }

    private func headEnd() -> Int? {
        guard head.count >= 4 else { return nil }
        for index in 0...(head.count - 4) where head[index] == 0x0D && head[index + 1] == 0x0A && head[index + 2] == 0x0D && head[index + 3] == 0x0A {
            return index + 4
        }
        return nil
    }

    private func eventCompleted(at now: NIODeadline) {
        guard seen < offsets.count else { return }
        lateness.append(Int64(now.uptimeNanoseconds) - offsets[seen] * 1_000_000)
        seen += 1
        guard seen == offsets.count, let anchor = lateness.min(), let anchorIndex = lateness.firstIndex(of: anchor) else { return }
        for (index, late) in lateness.enumerated() where index != anchorIndex {
            results.errors.append(late - anchor)
            results.errorsByEvent[index, default: []].append(late - anchor)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        streamEnded.succeed(())
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

func serverSentEventsLoad(port: Int, path: String, streams: Int, rampMilliseconds: Int, offsetsMilliseconds: [Int64]) throws {
    let clients = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = clients.next()
    let results = PacingErrors()
    let request = ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
    let started = NIODeadline.now()
    let ended = try loop.submit { () -> EventLoopFuture<Void> in
        var all: [EventLoopFuture<Void>] = []
        for index in 0..<streams {
            let streamEnded = loop.makePromise(of: Void.self)
            all.append(streamEnded.futureResult)
            // Started evenly over the ramp, as users' streams begin at different moments; 0 starts them
            // together, so every stream's events fall due in the same millisecond.
            let delay = rampMilliseconds == 0 ? 0 : Int64(rampMilliseconds) * Int64(index) / Int64(streams)
            loop.scheduleTask(in: .milliseconds(delay)) {
                ClientBootstrap(group: loop)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                ServerSentEventsReader(request: request, offsets: offsetsMilliseconds, results: results, streamEnded: streamEnded))
                        }
                    }
                    .connect(host: "127.0.0.1", port: port)
                    .whenFailure { streamEnded.fail($0) }
            }
        }
        return EventLoopFuture.andAllComplete(all, on: loop)
    }.wait()
    try ended.wait()
    let wall = Double((NIODeadline.now() - started).nanoseconds) / 1e9
    let summary = try loop.submit { (results.errors.sorted(), results.answeredOK, results.errorsByEvent) }.wait()
    let errors = summary.0
    func milliseconds(_ quantile: Double) -> Double {
        guard !errors.isEmpty else { return 0 }
        let value = errors[min(errors.count - 1, Int(Double(errors.count) * quantile))]
        return (Double(value) / 10_000).rounded() / 100
    }
    // Each event's p99 across the streams, in stream order.
    let byEvent = summary.2.keys.sorted().map { index -> String in
        let sorted = summary.2[index, default: []].sorted()
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return String((Double(value) / 10_000).rounded() / 100)
    }
    // The events after each stream's first: those the server waits for (the first goes with the head).
    let paced = summary.2.filter { $0.key > 0 }.values.flatMap { $0 }.sorted()
    let pacedP99 = paced.isEmpty ? 0 : (Double(paced[min(paced.count - 1, Int(Double(paced.count) * 0.99))]) / 10_000).rounded() / 100
    let expected = streams * max(0, offsetsMilliseconds.count - 1)
    print(#"{"streams": \#(streams), "rampMilliseconds": \#(rampMilliseconds), "answered200": \#(summary.1), "eventsMeasured": \#(errors.count), "expected": \#(expected), "errorP50ms": \#(milliseconds(0.5)), "errorP99ms": \#(milliseconds(0.99)), "errorMaxMs": \#(errors.isEmpty ? 0 : (Double(errors[errors.count - 1]) / 10_000).rounded() / 100), "wallSeconds": \#((wall * 100).rounded() / 100), "errorP99AfterFirstMs": \#(pacedP99), "errorP99ByEventMs": [\#(byEvent.joined(separator: ", "))]}"#)
}
