import NIOCore
import NIOEmbedded
import NIOHTTP1

/// One request as NIO's decoder handed it on. The body is its parts joined: how it is cut into parts
/// follows the reads, which the checks vary on purpose.
struct ParsedRequest: Equatable {
    var head: HTTPRequestHead
    var body: [UInt8] = []
    /// The trailers as `name: value` lines, when the end carried any.
    var trailers: [String]?
    var ended = false

    /// Equal in everything but the head's method.
    func matches(apartFromMethod other: ParsedRequest) -> Bool {
        head.uri == other.head.uri && head.version == other.head.version
            && Self.lines(head.headers) == Self.lines(other.head.headers)
            && body == other.body && trailers == other.trailers && ended == other.ended
    }

    /// The fields as written, in order and with their case: `HTTPHeaders`' own `==` ignores both.
    static func lines(_ headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }
}

/// What NIO's `HTTPRequestDecoder` made of a byte stream: the requests it parsed, and whether it stopped
/// on an error (which ends the connection with a 400 in the server: what follows it is never parsed).
struct ParsedStream: Equatable {
    var requests: [ParsedRequest] = []
    var failed = false

    /// NIO's decoder alone on `bytes`, in one read: the reference the rewriter's stream is held to.
    init(decoding bytes: [UInt8]) {
        let channel = EmbeddedChannel()
        do {
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
        } catch {
            fatalError("cannot set up the decoder: \(error)")
        }
        write(bytes[...], to: channel)
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }

    init() {}

    /// Writes one read into `channel` and takes in the parts the decoder made of it.
    mutating func write(_ bytes: ArraySlice<UInt8>, to channel: EmbeddedChannel) {
        do {
            try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
        } catch {
            failed = true
        }
        while let part = try? channel.readInbound(as: HTTPServerRequestPart.self) {
            switch part {
            case .head(let head):
                requests.append(ParsedRequest(head: head))
            case .body(let buffer):
                guard !requests.isEmpty else { fatalError("NIO's decoder sent a body part before any head") }
                requests[requests.count - 1].body += buffer.readableBytesView
            case .end(let trailers):
                guard !requests.isEmpty else { fatalError("NIO's decoder sent an end before any head") }
                requests[requests.count - 1].trailers = trailers.map(ParsedRequest.lines)
                requests[requests.count - 1].ended = true
            }
        }
    }
}
