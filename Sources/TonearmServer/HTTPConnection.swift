import NIOCore
import NIOHTTP1
import NIOPosix
import Tonearm

/// Serves one client connection: reads each request whole (within the size limits), has the core
/// answer it, and writes the answer, for as long as the client keeps the connection alive.
enum HTTPConnection {
    typealias Channel = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    static func serve(_ connection: Channel, core: ServerCore) async {
        let limit = core.configuration.maximumBodySize
        try? await connection.executeThenClose { inbound, outbound in
            var parts = inbound.makeAsyncIterator()
            do {
                while let part = try await parts.next() {
                    guard case .head(let head) = part else { continue }
                    if let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
                        try await write(tooLarge(limit), to: outbound, version: head.version, keepAlive: false, isHead: false)
                        return
                    }
                    if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                        try await outbound.write(.head(HTTPResponseHead(version: head.version, status: .continue)))
                    }
                    // Most requests have no body: the buffer is made by the first chunk.
                    var body: ByteBuffer?
                    var complete = false, overLimit = false
                    reading: while let next = try await parts.next() {
                        switch next {
                        case .body(var chunk):
                            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= limit else {
                                overLimit = true
                                break reading
                            }
                            if body == nil { body = chunk } else { body?.writeBuffer(&chunk) }
                        case .end:
                            complete = true
                            break reading
                        case .head:
                            break reading
                        }
                    }
                    if overLimit {
                        try await write(tooLarge(limit), to: outbound, version: head.version, keepAlive: false, isHead: false)
                    }
                    // The client went away mid-request (or broke framing): nothing to answer.
                    guard complete else { return }
                    let request = ServerRequest(
                        method: head.method.rawValue, target: head.uri,
                        headers: head.headers.map { HeaderField($0.name, $0.value) }, body: body.map { Array(buffer: $0) } ?? [])
                    switch await core.answer(request) {
                    case .response(let response):
                        // After CONNECT the client would start a tunnel: close instead.
                        let keepAlive = head.isKeepAlive && head.method != .CONNECT
                        try await write(response, to: outbound, version: head.version, keepAlive: keepAlive, isHead: head.method == .HEAD)
                        if !keepAlive { return }
                    case .fault(.close):
                        return
                    case .fault(.reset):
                        // SO_LINGER 0 makes close send RST instead of FIN.
                        try? await (connection.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                        return
                    }
                }
            } catch let error as HTTPParserError {
                let status = error == .headerOverflow ? 431 : 400
                let message = error == .headerOverflow
                    ? "request headers are larger than the server accepts (80 KiB)"
                    : "malformed HTTP request: \(error)"
                try? await write(ServerCore.plainText(status, message), to: outbound, version: .http1_1, keepAlive: false, isHead: false)
            }
        }
    }

    private static func tooLarge(_ limit: Int) -> Response {
        ServerCore.plainText(413, "request body is larger than the server accepts (\(limit) bytes)")
    }

    /// Writes `response` with hop-by-hop headers dropped and `Content-Length` stating the body sent, in
    /// one write: the head, body and end reach the channel together and are flushed once.
    static func write(
        _ response: Response, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        version: HTTPVersion, keepAlive: Bool, isHead: Bool
    ) async throws {
        try await outbound.write(contentsOf: parts(of: response, version: version, keepAlive: keepAlive, isHead: isHead))
    }

    /// The parts that send `response`.
    static func parts(of response: Response, version: HTTPVersion, keepAlive: Bool, isHead: Bool) -> [HTTPServerResponsePart] {
        let fields = HopByHop.removing(from: response.headers)
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count + 2)
        for field in fields where !field.name.equalsIgnoringASCIICase("content-length") {
            headers.add(name: field.name, value: field.value)
        }
        let bodiless = response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
        if !bodiless {
            let recordedLength = response.headers.first(named: "Content-Length")
            // A HEAD answer states the length the GET would have; the recorded one when there is one.
            headers.add(name: "Content-Length", value: isHead ? (recordedLength ?? String(response.body.count)) : String(response.body.count))
        }
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if version == .http1_0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        var parts: [HTTPServerResponsePart] = []
        parts.reserveCapacity(3)
        parts.append(.head(HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)))
        if !bodiless && !isHead && !response.body.isEmpty {
            parts.append(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        parts.append(.end(nil))
        return parts
    }
}
