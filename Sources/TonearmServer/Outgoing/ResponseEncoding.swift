import NIOCore
import NIOHTTP1
import Tonearm

/// What the writer needs to know of the request an answer goes to: its HTTP version, and whether it
/// is a `HEAD` (the answer states the length but sends no body) or a `CONNECT` (the answer states no
/// length). Small, so that it travels with the answer without a box.
struct RequestFraming: Sendable, Equatable {
    /// The methods whose answers are framed apart.
    enum Method: UInt8, Sendable {
        case head, connect, other
    }

    var version: HTTPVersion
    var method: Method

    init(version: HTTPVersion, method: HTTPMethod) {
        self.version = version
        self.method = method == .HEAD ? .head : method == .CONNECT ? .connect : .other
    }

    /// Whether an answer kept encoded (HTTP/1.1, kept alive, not `HEAD`) is written as it is.
    var takesKeptEncoding: Bool { version == .http1_1 && method == .other }
}

/// How an ``OutgoingResponse`` becomes bytes: the framing of RFC 9112 as the server applies it, and
/// the one encoder of heads and bodies. Pure functions of the value and the request, so that golden
/// tests pin the bytes of every body kind and ending without a channel.
///
/// Framing: hop-by-hop fields are dropped; `Content-Length` states the body sent (for `HEAD`, the
/// length the GET would have: the recorded one when there is one), except for a status without a body
/// (1xx, 204, 304) and an answer to `CONNECT` (RFC 9112 §6.3); `Connection: close` when the connection
/// closes after the answer, `Connection: keep-alive` when it stays open for HTTP/1.0. An interim head
/// and a tunnel's 200 carry their fields as they are, with no framing.
enum ResponseEncoding {
    /// Whether the head answering `request` with `status` states a `Content-Length` (and carries a body).
    static func statesLength(status: Int, request: RequestFraming) -> Bool {
        !(status == 204 || status == 304 || (100..<200).contains(status)) && request.method != .connect
    }

    /// Whether `head` and `body` answering `request` send the body's bytes after the head.
    static func sendsBody(status: Int, request: RequestFraming) -> Bool {
        statesLength(status: status, request: request) && request.method != .head
    }

    /// Calls `field` with each header field of the head that sends `head` with a body of `bodyCount`
    /// bytes to `request`, framed as `framed` says (see the type's description). A `streamed` body's
    /// length is not known: it is sent chunked to HTTP/1.1, and to HTTP/1.0 until the connection closes
    /// (no length field; the caller does not keep such a connection alive). A `chunked` body is known
    /// but sent chunked to HTTP/1.1 all the same (``OutgoingResponse/Body/chunked(_:)``), with its length
    /// to HTTP/1.0.
    static func forEachField(
        of head: OutgoingResponse.Head, bodyCount: Int, request: RequestFraming, keepAlive: Bool, framed: Bool,
        streamed: Bool = false, chunked: Bool = false, _ field: (String, String) -> Void
    ) {
        guard framed else {
            for header in head.fields { field(header.name, header.value) }
            return
        }
        for header in HopByHop.removing(from: head.fields) where !header.name.equalsIgnoringASCIICase("content-length") {
            field(header.name, header.value)
        }
        if streamed || (chunked && request.version == .http1_1) {
            if statesLength(status: head.status, request: request), request.version == .http1_1 { field("Transfer-Encoding", "chunked") }
        } else if statesLength(status: head.status, request: request) {
            let length = String(bodyCount)
            field("Content-Length", request.method == .head ? (head.fields.first(named: "Content-Length") ?? length) : length)
        }
        if !keepAlive {
            field("Connection", "close")
        } else if request.version == .http1_0 {
            field("Connection", "keep-alive")
        }
    }

    /// The head that sends `head` (with a body of `bodyCount` bytes) to `request`, and, when `body` is
    /// given and the request takes it, the body after it: one buffer. `nil` when a field is not one
    /// HTTP can carry (a name that is not a token, a value with a control character): such an answer
    /// cannot be sent as it is.
    static func encode(
        _ head: OutgoingResponse.Head, bodyCount: Int, body: [UInt8]?, request: RequestFraming, keepAlive: Bool, framed: Bool,
        streamed: Bool = false, chunked: Bool = false, allocator: ByteBufferAllocator
    ) -> ByteBuffer? {
        var valid = true
        var size = 32 + (head.reasonPhrase?.utf8.count ?? 0)
        let sent = body.flatMap { sendsBody(status: head.status, request: request) ? $0 : nil }
        // A chunked body known in advance goes in the same buffer: one chunk (none when empty), the last.
        let inChunks = chunked && framed && request.version == .http1_1
        size += (sent?.count ?? 0) + (inChunks ? 32 : 0)
        forEachField(
            of: head, bodyCount: bodyCount, request: request, keepAlive: keepAlive, framed: framed, streamed: streamed, chunked: chunked
        ) { name, value in
            valid = valid && isValidName(name) && isValidValue(value)
            size += name.utf8.count + value.utf8.count + 4
        }
        guard valid else { return nil }
        var buffer = allocator.buffer(capacity: size)
        switch request.version {
        case .http1_1: buffer.writeStaticString("HTTP/1.1 ")
        case .http1_0: buffer.writeStaticString("HTTP/1.0 ")
        default: buffer.writeString("HTTP/\(request.version.major).\(request.version.minor) ")
        }
        buffer.writeString(String(head.status))
        buffer.writeStaticString(" ")
        buffer.writeString(head.reasonPhrase ?? HTTPResponseStatus(statusCode: head.status).reasonPhrase)
        buffer.writeStaticString("\r\n")
        forEachField(
            of: head, bodyCount: bodyCount, request: request, keepAlive: keepAlive, framed: framed, streamed: streamed, chunked: chunked
        ) { name, value in
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        if let sent, inChunks {
            if !sent.isEmpty { writeChunk(sent, to: &buffer) }
            buffer.writeString(lastChunk)
        } else if let sent {
            buffer.writeBytes(sent)
        }
        return buffer
    }

    /// `bytes` as one chunk of a chunked body (RFC 9112 §7.1): its size in hex, the bytes, CRLF.
    static func chunk(_ bytes: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: bytes.count + 20)
        writeChunk(bytes, to: &buffer)
        return buffer
    }

    /// Writes `bytes` as one chunk (``chunk(_:allocator:)``) at the end of `buffer`.
    static func writeChunk(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeString(String(bytes.count, radix: 16))
        buffer.writeStaticString("\r\n")
        buffer.writeBytes(bytes)
        buffer.writeStaticString("\r\n")
    }

    /// The last chunk of a chunked body, with no trailer fields.
    static let lastChunk = "0\r\n\r\n"

    /// Bytes that are no HTTP response: what a client sees when a server goes wrong.
    static let garbage = "lorem ipsum dolor sit amet, not an HTTP response\r\n\r\n"

    /// A valid head announcing a chunked body, then a line that is no chunk size.
    static func malformedChunk(version: HTTPVersion) -> String {
        "HTTP/\(version.major).\(version.minor) 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum\r\n"
    }

    /// A token (RFC 9110 §5.6.2).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
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

    /// No control character but HTAB (RFC 9110 §5.5).
    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
