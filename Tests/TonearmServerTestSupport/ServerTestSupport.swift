import AsyncHTTPClient
import Foundation
import NIOCore
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmTestSupport
import TonearmURLSession
import TonearmWireMock
#if canImport(Glibc)
import Glibc
#endif

/// A server configuration logging nowhere, so test output stays readable, with WireMock installed (its
/// admin API and stub mappings) as `tonearm serve` has it.
package func quietConfiguration(
    cassette: URL? = nil, mode: RecordMode = .never, hosts: [String] = [], upstream: String? = nil
) -> ServerConfiguration {
    var configuration = ServerConfiguration(
        cassette: cassette, mode: mode, hosts: hosts.compactMap { UpstreamHost($0) },
        upstream: upstream.flatMap { UpstreamHost($0) }, log: { _ in })
    // Each test's server on loops of its own: work another test's server does on a shared loop must not
    // hold up this one's connections (or its timers).
    configuration.network.eventLoops = .dedicated()
    configuration.wireMock = .init()
    return configuration
}

/// A native cassette file in `folder` holding `tracks`.
package func savedCassette(_ tracks: [Track], in folder: TemporaryFolder, name: String = "c.json") throws -> URL {
    let file = folder.file(name)
    try CassetteFile.save(Cassette(tracks: tracks), to: file, format: .native)
    return file
}

/// One exchange made with AsyncHTTPClient, body collected.
package struct ClientResponse {
    package var status: Int
    package var headers: [HeaderField]
    package var body: [UInt8]
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// A plain HTTP client for the tests (its own, not the server's).
package enum TestClient {
    package static let shared = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    package static func send(
        _ url: String, method: String = "GET", headers: [(String, String)] = [], body: String? = nil
    ) async throws -> ClientResponse {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        // The control and admin APIs take JSON and refuse bodies without a Content-Type (as a browser
        // page could send them): bodies sent there are JSON unless a test says otherwise, as with
        // WireMock's clients. Traffic is sent as the test gives it.
        if let body {
            let controlPlane = url.contains("/__tonearm") || url.contains("/__admin")
            if controlPlane, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                request.headers.add(name: "Content-Type", value: "application/json")
            }
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await shared.execute(request, timeout: .seconds(120))
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return ClientResponse(
            status: Int(response.status.code), headers: response.headers.map { HeaderField($0.name, $0.value) },
            body: Array(buffer: collected))
    }
}

/// A JSON object's member names and the JSON type of each (read with the core's JSON parser, so
/// booleans and numbers are told apart on every platform): how the admin and control API tests pin a
/// document's fields.
package func jsonShape(_ value: Any?) -> [String: String] {
    guard let value, JSONSerialization.isValidJSONObject(value),
        let data = try? JSONSerialization.data(withJSONObject: value),
        case .object(let members)? = try? JSONValue(parsing: Array(data))
    else { return [:] }
    var result: [String: String] = [:]
    for member in members {
        result[member.key] = switch member.value {
        case .string: "string"
        case .bool: "boolean"
        case .number: "number"
        case .array: "array"
        case .object: "object"
        case .null: "null"
        }
    }
    return result
}


/// `curl`, when installed.
package let curlPath: String? = ["/usr/bin/curl", "/usr/local/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// A loopback port that refuses connections for as long as this value lives: an upstream that is down.
///
/// Bound but never listening, so the kernel refuses connections to it and no other server can take it.
/// (A stopped test upstream's port is free again: a server started by a test running in parallel may get
/// it, and then the "down" upstream answers.)
package final class RefusingPort: Sendable {
    package let port: Int
    private let descriptor: Int32

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else { close(descriptor); throw POSIXError(.EADDRNOTAVAIL) }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    package var origin: String { "http://127.0.0.1:\(port)" }
    package var authority: String { "127.0.0.1:\(port)" }
}

/// A raw TCP connection for sending bytes no HTTP client would (garbage, CONNECT, huge headers).
///
/// `@unchecked Sendable`: its only state is an immutable socket descriptor, and each test uses a
/// connection from one task at a time.
package final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    package init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // Generous: a test runner on a loaded 2-core machine can be slow; a test never relies on it expiring.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    package func send(_ text: String) { send(Array(text.utf8)) }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Everything until the peer closes (or 60 s pass), read off the cooperative pool.
    package func readToEnd() async throws -> String {
        try await readUntilClosed().text
    }

    /// Everything received, and whether the peer closed the connection (rather than the read timing out).
    package func readUntilClosed() async throws -> (text: String, closed: Bool) {
        try await blocking { self.readBlocking() }
    }

    /// ``readUntilClosed()`` on the calling thread.
    package func readBlocking() -> (text: String, closed: Bool) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 {
                let timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
                return (String(decoding: data, as: UTF8.self), !timedOut)
            }
            data += buffer[0..<count]
        }
    }

    /// Everything received until the peer closes or resets the connection, and the error that ended
    /// it (`0` for a clean close, `ECONNRESET` for a reset).
    package func readRecordingError() -> (text: String, error: Int32) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return (String(decoding: data, as: UTF8.self), 0) }
            if count < 0 { return (String(decoding: data, as: UTF8.self), errno) }
            data += buffer[0..<count]
        }
    }

    /// Everything received until `marker` is among it (or the peer closes, or 60 s pass), read off the
    /// cooperative pool: for a test that must know the server has read a request before going on.
    package func read(until marker: String) async throws -> String {
        try await blocking {
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !String(decoding: data, as: UTF8.self).contains(marker) {
                let count = recv(self.descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                data += buffer[0..<count]
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Everything received until `marker` is among it (or the peer closes, or 60 s pass), each read with
    /// the time it arrived: for a test of when a paced body's parts come.
    package func timedReads(until marker: String) async throws -> [(arrived: ContinuousClock.Instant, text: String)] {
        try await blocking {
            var reads: [(arrived: ContinuousClock.Instant, text: String)] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !reads.map(\.text).joined().contains(marker) {
                let count = recv(self.descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                reads.append((ContinuousClock.now, String(decoding: buffer[0..<count], as: UTF8.self)))
            }
            return reads
        }
    }

    /// What arrives until it ends with `suffix` (one keep-alive answer), the peer closes, or 60 s pass.
    package func readUntil(suffix: String) -> String {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        let wanted = Array(suffix.utf8)
        while !data.suffix(wanted.count).elementsEqual(wanted), recv(descriptor, &byte, 1, 0) == 1 { data.append(byte) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether bytes (or the peer's close) are waiting to be read, without waiting or consuming them.
    package func hasDataWaiting() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
    }

    package func closeWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Whether the server sent something or closed within `limit`: returns as soon as it does (poll(2)),
    /// so the limit only bounds a server that never does.
    package func awaitsDataOrClose(within limit: Duration) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, milliseconds) > 0
    }
}
