import NIOCore
import NIOHTTP1
import Tonearm

/// How an answer goes on the wire, the one place for both ways of writing it: as NIO's head and body
/// parts through the HTTP encoder, or (a plain keep-alive answer) as one buffer encoded here and written
/// beneath the encoder by ``ConnectionLifecycleHandler/writeEncoded(_:)``. The second skips three
/// writes and a flush through six handlers and NIO's `HTTPHeaders`: most of what a replay cost on top
/// of NIO's own floor (docs/benchmarks.md, "Request path toward the NIO floor").
///
/// The server's HTTP encoder sets no framing headers of its own (``HTTPPipeline``), so the fields here
/// are all the head carries, whichever way it is written.
enum AnswerFraming {
    /// Whether the head answering a `method` request with `status` states a `Content-Length`: not for a
    /// status without a body (1xx, 204, 304), nor for an answer to `CONNECT`, which has none either
    /// (RFC 9112 §6.3; NIO's paired encoder dropped both before, and this keeps its framing).
    static func statesLength(status: Int, method: HTTPMethod) -> Bool {
        !(status == 204 || status == 304 || (100..<200).contains(status)) && method != .CONNECT
    }

    /// Calls `field` with each header field of the head that sends `response` to a `method` request:
    /// hop-by-hop headers dropped, `Content-Length` stating the body sent (for `HEAD`, the length the GET
    /// would have: the recorded one when there is one), and `Connection` when the connection closes
    /// after it, or stays open for HTTP/1.0.
    static func forEachField(
        of response: Response, method: HTTPMethod, version: HTTPVersion, keepAlive: Bool, _ field: (String, String) -> Void
    ) {
        for header in HopByHop.removing(from: response.headers) where !header.name.equalsIgnoringASCIICase("content-length") {
            field(header.name, header.value)
        }
        if statesLength(status: response.status, method: method) {
            let length = String(response.body.count)
            field("Content-Length", method == .HEAD ? (response.headers.first(named: "Content-Length") ?? length) : length)
        }
        if !keepAlive {
            field("Connection", "close")
        } else if version == .http1_0 {
            field("Connection", "keep-alive")
        }
    }

    /// The body sent after the head, `nil` when there is none to send.
    static func body(of response: Response, method: HTTPMethod) -> ByteBuffer? {
        guard statesLength(status: response.status, method: method), method != .HEAD, !response.body.isEmpty else { return nil }
        return ByteBuffer(bytes: response.body)
    }

    /// The head and body (none when there is nothing to send) that send `response`, before the end.
    /// (Not an array of parts: that was one more allocation per answer.)
    static func parts(
        of response: Response, reasonPhrase: String? = nil, version: HTTPVersion, keepAlive: Bool, method: HTTPMethod
    ) -> (head: HTTPResponseHead, body: ByteBuffer?) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(response.headers.count + 2)
        forEachField(of: response, method: method, version: version, keepAlive: keepAlive) { headers.add(name: $0, value: $1) }
        let status = reasonPhrase.map { HTTPResponseStatus.custom(code: UInt(clamping: response.status), reasonPhrase: $0) }
            ?? HTTPResponseStatus(statusCode: response.status)
        return (HTTPResponseHead(version: version, status: status, headers: headers), body(of: response, method: method))
    }

    /// `response` to a `method` request kept alive, head and body in one buffer, byte for byte what NIO's
    /// encoder writes for ``parts(of:reasonPhrase:version:keepAlive:method:)``; `nil` when the answer
    /// must take that way instead: an HTTP version other than 1.1 and 1.0, or a header NIO's validator
    /// refuses (it fails the answer and closes the connection, which only it does).
    static func encoded(_ response: Response, method: HTTPMethod, version: HTTPVersion, allocator: ByteBufferAllocator) -> ByteBuffer? {
        guard version == .http1_1 || version == .http1_0 else { return nil }
        var valid = true
        var size = 32 + response.body.count
        forEachField(of: response, method: method, version: version, keepAlive: true) { name, value in
            valid = valid && isValidName(name) && isValidValue(value)
            size += name.utf8.count + value.utf8.count + 4
        }
        guard valid else { return nil }
        var buffer = allocator.buffer(capacity: size)
        buffer.writeStaticString(version == .http1_1 ? "HTTP/1.1 " : "HTTP/1.0 ")
        buffer.writeString(String(response.status))
        buffer.writeStaticString(" ")
        buffer.writeString(HTTPResponseStatus(statusCode: response.status).reasonPhrase)
        buffer.writeStaticString("\r\n")
        forEachField(of: response, method: method, version: version, keepAlive: true) { name, value in
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        if statesLength(status: response.status, method: method), method != .HEAD { buffer.writeBytes(response.body) }
        return buffer
    }

    /// A token (RFC 9110 §5.6.2), as NIO's response validator requires of a header name.
    private static func isValidName(_ name: String) -> Bool {
        name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
                UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                true
            default:
                false
            }
        }
    }

    /// No control character but HTAB, as NIO's response validator requires of a header value.
    private static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
