import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import TonearmServer

/// A method ``MethodRewrites`` holds for the connection handler: the request it belongs to (counted from 0
/// in the order the rewriter met requests) and the method that request was sent with.
struct NotedRewrite: Equatable {
    var request: Int
    var method: String
}

/// The server's front of the pipeline on an `EmbeddedChannel`: `CustomMethodRewriter` then NIO's
/// `HTTPRequestDecoder`, as `HTTPPipeline` adds them, with a handler between the two that keeps the bytes
/// the rewriter passes on. The input arrives in reads of the given lengths.
struct RewriterRun {
    /// The bytes the rewriter handed the decoder.
    let output: [UInt8]
    /// What the decoder made of them; heads as parsed, methods not put back.
    let parsed: ParsedStream
    /// Every method the rewriter noted, in request order.
    let noted: [NotedRewrite]
    /// Each parsed head's method once `MethodRewrites.restore` has run on it, as the connection handler
    /// sees it.
    let restored: [HTTPMethod]

    init(_ input: [UInt8], reads: [Int]) {
        let rewrites = MethodRewrites()
        let kept = KeptBytes()
        let channel = EmbeddedChannel()
        do {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(CustomMethodRewriter(rewrites: rewrites))
            try pipeline.addHandler(kept)
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
        } catch {
            fatalError("cannot set up the pipeline: \(error)")
        }
        var parsed = ParsedStream()
        var offset = 0
        for length in reads {
            parsed.write(input[offset..<offset + length], to: channel)
            offset += length
        }
        _ = try? channel.finish(acceptAlreadyClosed: true)

        // `restore` pairs the n-th call with the n-th request the rewriter met, so it is called once per
        // number: on each parsed head in order (the connection handler's calls), then on stand-ins up to
        // the most requests the input could start (each takes at least a token character and a space),
        // to read every noted method. The method is set to a sentinel first, so that putting back a
        // method equal to the parsed one still shows.
        let sentinel = HTTPMethod.RAW(value: "\u{0}")
        var noted: [NotedRewrite] = []
        var restored: [HTTPMethod] = []
        var probe = HTTPRequestHead(version: .http1_1, method: sentinel, uri: "/")
        for number in 0..<max(input.count / 2 + 2, parsed.requests.count) {
            let parsedHead = number < parsed.requests.count ? parsed.requests[number].head : nil
            if let parsedHead { probe = parsedHead }
            probe.method = sentinel
            rewrites.restore(&probe)
            let putBack = probe.method == sentinel ? nil : probe.method
            if let putBack { noted.append(NotedRewrite(request: number, method: putBack.rawValue)) }
            if let parsedHead { restored.append(putBack ?? parsedHead.method) }
        }
        output = kept.bytes
        self.parsed = parsed
        self.noted = noted
        self.restored = restored
    }
}

/// Keeps a copy of every byte on its way from the rewriter to the decoder.
private final class KeptBytes: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    var bytes: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        bytes += unwrapInboundIn(data).readableBytesView
        context.fireChannelRead(data)
    }
}
