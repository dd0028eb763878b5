import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
import TonearmTestSupport
import TonearmWorkloads
@testable import TonearmServer
import TonearmServerTestSupport

/// Issue 19, part 2: a mapping may name a method NIO's parser does not know (`KILL`); the request must
/// reach matching instead of a 400 from the parser, on a fresh or a reused connection.
@Suite("Custom methods")
struct CustomMethodTests {
    /// A request as written on the wire, and what the parser must hand on for it.
    private struct WireRequest {
        var method: String
        var uri: String
        var body: [UInt8]
        var chunked: Bool
        var bytes: [UInt8]
    }

    private static let methods = ["GET", "POST", "KILL", "PURGEALL", "PROPFIND", "DELETE", "X-ACT.1", "M-SEARCH", "PATCH"]

    private static func wireRequest(_ generator: inout some RandomNumberGenerator, index: Int) -> WireRequest {
        let method = methods.randomElement(using: &generator) ?? "GET"
        let uri = "/r/\(index)?q=\(Int.random(in: 0..<100, using: &generator))"
        let bodyLength = Bool.random(using: &generator) ? 0 : Int.random(in: 1..<300, using: &generator)
        let body = (0..<bodyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let chunked = bodyLength > 0 && Bool.random(using: &generator)
        var head = "\(method) \(uri) HTTP/1.1\r\nHost: example.test\r\nX-Filler: \(String(repeating: "a", count: Int.random(in: 0..<40, using: &generator)))\r\n"
        var bytes: [UInt8] = []
        if chunked {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            bytes = Array(head.utf8)
            var rest = body[...]
            while !rest.isEmpty {
                let size = min(rest.count, Int.random(in: 1..<120, using: &generator))
                let extensionText = Bool.random(using: &generator) ? ";ext=1" : ""
                bytes += Array((String(size, radix: 16, uppercase: Bool.random(using: &generator)) + extensionText + "\r\n").utf8)
                bytes += rest.prefix(size)
                bytes += Array("\r\n".utf8)
                rest = rest.dropFirst(size)
            }
            bytes += Array((Bool.random(using: &generator) ? "0\r\nX-Trailer: t\r\n\r\n" : "0\r\n\r\n").utf8)
        } else {
            if bodyLength > 0 || Bool.random(using: &generator) {
                head += "\(Bool.random(using: &generator) ? "content-length" : "Content-Length"): \(bodyLength)\r\n"
            }
            if Bool.random(using: &generator) { head += "Connection: keep-alive\r\nCookie: c=1\r\nTE: trailers\r\n" }
            head += "\r\n"
            bytes = Array(head.utf8) + body
        }
        return WireRequest(method: method, uri: uri, body: body, chunked: chunked, bytes: bytes)
    }

    /// Feeds `stream` in reads of random sizes through the rewriter and NIO's own decoder, restoring
    /// methods as the connection handler does; returns (method, uri, body) per request parsed.
    private static func parse(_ stream: [UInt8], generator: inout some RandomNumberGenerator) throws -> [(String, String, [UInt8])] {
        let rewrites = MethodRewrites()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(CustomMethodRewriter(rewrites: rewrites))
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
        var parsed: [(String, String, [UInt8])] = []
        var offset = 0
        var body: [UInt8] = []
        var current: HTTPRequestHead?
        while offset < stream.count {
            // Small reads split heads and tokens anywhere; whole reads take the common-head path.
            let size = Bool.random(using: &generator) ? stream.count - offset : min(stream.count - offset, Int.random(in: 1..<90, using: &generator))
            try channel.writeInbound(channel.allocator.buffer(bytes: stream[offset..<offset + size]))
            offset += size
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
                switch part {
                case .head(var head):
                    rewrites.restore(&head)
                    current = head
                    body = []
                case .body(let chunk):
                    body += chunk.readableBytesView
                case .end:
                    if let current { parsed.append((current.method.rawValue, current.uri, body)) }
                }
            }
        }
        _ = try channel.finish()
        return parsed
    }

    @Test("any mix of methods, bodies and chunkings, in reads of any size, reaches the parser as sent (property, 300 streams)")
    func streamsParseAsSent() throws {
        var generator = SeededRandom(seed: 0x5eed_19)
        for round in 0..<300 {
            let requests = (0..<Int.random(in: 1..<8, using: &generator)).map { Self.wireRequest(&generator, index: $0) }
            let stream = requests.flatMap(\.bytes)
            let parsed = try Self.parse(stream, generator: &generator)
            #expect(parsed.map(\.0) == requests.map(\.method), "round \(round)")
            #expect(parsed.map(\.1) == requests.map(\.uri), "round \(round)")
            #expect(parsed.map(\.2) == requests.map(\.body), "round \(round)")
            if parsed.count != requests.count { break }
        }
    }

    @Test("a CONNECT ends the rewriting: the tunnel's bytes pass untouched")
    func connectPassesThrough() throws {
        let rewrites = MethodRewrites()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(CustomMethodRewriter(rewrites: rewrites))
        let tunnelBytes = Array("CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\nKILL / HTTP/1.1\r\n\r\n".utf8)
        try channel.writeInbound(channel.allocator.buffer(bytes: tunnelBytes))
        var seen: [UInt8] = []
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { seen += buffer.readableBytesView }
        _ = try channel.finish()
        #expect(seen == tunnelBytes)
    }

    /// What the rewriter alone passes on of `stream` arriving in reads of `readSize` bytes, and the methods
    /// it noted (read back through `restore` on stand-in heads).
    private static func rewritten(_ stream: [UInt8], readSize: Int) throws -> (bytes: [UInt8], noted: [String]) {
        let rewrites = MethodRewrites()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(CustomMethodRewriter(rewrites: rewrites))
        var offset = 0
        while offset < stream.count {
            let size = min(readSize, stream.count - offset)
            try channel.writeInbound(channel.allocator.buffer(bytes: stream[offset..<offset + size]))
            offset += size
        }
        var seen: [UInt8] = []
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { seen += buffer.readableBytesView }
        _ = try channel.finish()
        var noted: [String] = []
        for _ in 0..<8 {
            var head = HTTPRequestHead(version: .http1_1, method: .RAW(value: "-"), uri: "/")
            rewrites.restore(&head)
            noted.append(head.method.rawValue)
        }
        return (seen, noted)
    }

    @Test("a head line the parser refuses is passed over the same way whether the head comes in one read or byte by byte (found by FuzzMethodRewriter)")
    func refusedHeadLinesDoNotDependOnReads() throws {
        // Each head has a line llhttp refuses; before, a head in one read passed over it while a head in
        // pieces read it (or gave up), so the KILL after it was replaced in one case and not the other.
        let streams = [
            // A line without a colon.
            "GET / HTTP/1.1\r\nHost\r\n\r\nKILL / HTTP/1.1\r\n\r\n",
            // A line starting with a lone carriage return, then what would be a Content-Length.
            "GET / HTTP/1.1\r\n\rContent-Length: 19\r\n\r\nKILL / HTTP/1.1\r\n\r\n",
            // A carriage return too many before the blank line.
            "GET / HTTP/1.1\r\nX-A: 1\r\n\r\r\nKILL / HTTP/1.1\r\n\r\n",
        ]
        for stream in streams.map({ Array($0.utf8) }) {
            let whole = try Self.rewritten(stream, readSize: stream.count)
            for readSize in [1, 2, 5] {
                let pieces = try Self.rewritten(stream, readSize: readSize)
                #expect(pieces.bytes == whole.bytes, "\(String(decoding: stream, as: UTF8.self).debugDescription) in reads of \(readSize)")
                #expect(pieces.noted == whole.noted)
            }
        }
    }

    @Test("tonearm serve answers a WireMock mapping's custom method, on a new and on a kept-alive connection")
    func servedOverHTTP() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL
        let added = try await TestClient.send(
            base.absoluteString + "/__admin/mappings", method: "POST", headers: [("Content-Type", "application/json")],
            body: #"{"request":{"method":"KILL","url":"/k"},"response":{"status":200,"body":"killed"}}"#)
        let port = try #require(base.port)
        // One connection: a GET, a KILL, a GET with a body, a KILL again, as one pipelined write.
        let stream = "GET /k HTTP/1.1\r\nHost: h\r\n\r\nKILL /k HTTP/1.1\r\nHost: h\r\n\r\n"
            + "GET /k HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
            + "KILL /k HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
        let connection = try RawConnection(port: port)
        connection.send(stream)
        let answer = try await connection.readUntilClosed().text
        try await server.stop()
        #expect(added.status == 201, "\(added.text)")
        let text = answer
        // A body does not end with a line break, so the next status line may follow it on the same line.
        let statuses = text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        #expect(statuses == ["404", "200", "404", "200"], "\(text)")
        #expect(text.components(separatedBy: "killed").count == 3)
    }
}
