import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server, shared by the URLSession, bridge and server tests (the server's upstream), on 127.0.0.1 and a free port, on plain POSIX sockets, so recording tests talk
/// to a real server without pulling SwiftNIO into the build. One request per connection
/// (`Connection: close`); the request body is read by `Content-Length`.
public final class HTTPTestServer: Sendable {
    public struct ReceivedRequest: Sendable {
        public var method: String
        /// Path and query, as on the request line.
        public var target: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public var path: String { String(target.prefix { $0 != "?" }) }
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        /// When set, the head is sent at once and the body one byte at a time, this long apart: an
        /// upstream dripping its body (the connection closes early if the client leaves).
        public var byteInterval: Duration?

        public init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [], byteInterval: Duration? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.byteInterval = byteInterval
        }

        public init(status: Int = 200, headers: [(name: String, value: String)] = [], text: String) {
            self.init(status: status, headers: headers, body: Array(text.utf8))
        }
    }

    public enum ServerError: Error, CustomStringConvertible {
        case socket(String)
        public var description: String {
            switch self { case .socket(let step): "test server: \(step) failed (errno \(errno))" }
        }
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (ReceivedRequest) -> Reply
    private let log = Mutex<[ReceivedRequest]>([])
    private let stopped = Mutex(false)

    /// Starts listening and accepting on a background thread.
    public init(handler: @escaping @Sendable (ReceivedRequest) -> Reply) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServerError.socket("socket") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 256) == 0 else {
            close(descriptor)
            throw ServerError.socket("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            close(descriptor)
            throw ServerError.socket("getsockname")
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = descriptor
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request served so far.
    public var received: [ReceivedRequest] { log.withLock { $0 } }

    /// Stops accepting; later connections are refused.
    public func stop() {
        let wasStopped = stopped.withLock { state in
            defer { state = true }
            return state
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // stopped
            }
            // A thread per connection, not a dispatch queue: a handler that waits (an upstream holding
            // its answer) must not hold up other connections behind the queue's few threads.
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        log.withLock { $0.append(request) }
        let reply = handler(request)
        var head = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\n"
        for header in reply.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(reply.body.count)\r\nConnection: close\r\n\r\n"
        guard let interval = reply.byteInterval else {
            _ = writeAll(Array(head.utf8) + reply.body, to: connection)
            return
        }
        guard writeAll(Array(head.utf8), to: connection) else { return }
        let pause = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        for byte in reply.body {
            Thread.sleep(forTimeInterval: pause)
            guard writeAll([byte], to: connection) else { return }
        }
    }

    private func readRequest(_ connection: Int32) -> ReceivedRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
            headEnd = Self.find(separator, in: buffer)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        var body = Array(buffer[(headEnd + 4)...])
        while body.count < length {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += chunk[0..<count]
        }
        return ReceivedRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    /// Whether every byte was sent (`false` once the client has gone).
    private func writeAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                send(connection, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                send(connection, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 404: "Not Found"
        default: "Status"
        }
    }
}
