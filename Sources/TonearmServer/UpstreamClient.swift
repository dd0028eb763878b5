import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Tonearm
import TonearmReplay

/// Sends requests to the real upstreams, keeping the wire: body bytes as they are (no decompression),
/// repeated headers separate and in order, hop-by-hop headers dropped, `Host` set to the upstream, and
/// redirects returned rather than followed (so each hop is its own track).
package final class UpstreamClient: Sendable {
    /// Why an upstream exchange failed.
    package struct Failure: Error, Sendable {
        /// 502 when the upstream could not be reached or broke the exchange, 504 when it timed out.
        package var status: Int
        package var message: String
    }

    private let client: HTTPClient
    private let timeout: Duration
    private let maximumBodySize: Int
    private let timer: LoopTimer
    private let tls: TLSConfiguration

    /// Upstreams reached at another address (``ServerConfiguration/Network/upstreamConnections``): the
    /// client resolves their names to the addresses (AsyncHTTPClient's `dnsOverride`, which keeps the
    /// name for TLS), and a request's port is swapped for the address's port.
    struct Connections: Sendable {
        let addresses: [String: String]
        let ports: [String: Int]

        /// None: every upstream where its name resolves.
        init() {
            addresses = [:]
            ports = [:]
        }

        init(_ connections: [UpstreamConnection]) throws(ServerError) {
            var addresses: [String: String] = [:], ports: [String: Int] = [:]
            for connection in connections {
                if let other = addresses[connection.host], other != connection.address {
                    throw .invalid(
                        what: "connect-to", value: connection.description,
                        expected: "one address for \(connection.host) (another entry connects it to \(other))")
                }
                addresses[connection.host] = connection.address
                ports["\(connection.host):\(connection.port)"] = connection.addressPort
            }
            self.addresses = addresses
            self.ports = ports
        }

        /// `url` with the port it connects to, and the `Host` field it must keep, when its host is one of
        /// the connections'; else `url` as it is and `nil`.
        func target(of url: String) -> (url: String, host: String?) {
            guard !addresses.isEmpty, let upstream = UpstreamHost(ofURL: url), addresses[upstream.hostName] != nil else {
                return (url, nil)
            }
            var port = upstream.scheme == "https" ? 443 : 80
            if !upstream.authority.hasSuffix("]"), let colon = upstream.authority.lastIndex(of: ":"),
                let given = Int(upstream.authority[upstream.authority.index(after: colon)...]) {
                port = given
            }
            guard let addressPort = ports["\(upstream.hostName):\(port)"], addressPort != port else { return (url, nil) }
            let name = upstream.hostName.contains(":") ? "[\(upstream.hostName)]" : upstream.hostName
            let rest = url.dropFirst(upstream.origin.count)
            return ("\(upstream.scheme)://\(name):\(addressPort)\(rest)", upstream.authority)
        }
    }

    private let connections: Connections

    init(
        group: any EventLoopGroup, timeout: Duration, maximumBodySize: Int, tls: TLSConfiguration = .makeClientConfiguration(),
        connections: Connections? = nil
    ) {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, decompression: .disabled)
        let connections = connections ?? Connections()
        configuration.dnsOverride = connections.addresses
        self.connections = connections
        // Connecting is bounded on its own (docs/server.md, "The upstream deadline"): a host that has
        // not accepted in 10 s is down or filtered, and saying so beats waiting out the whole deadline.
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10))
        // An upstream that refuses the connection is down: answer 502 at once, as a direct connection
        // would fail, rather than retry with backoff until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.tls = tls
        timer = LoopTimer(group: group)
    }

    /// Opens a WebSocket to the upstream of `request` (a handshake, its URL absolute) on `loop`, with the
    /// same trust, deadline and size limit as any upstream exchange (``UpstreamWebSocket``).
    func openWebSocket(_ request: Request, on loop: any EventLoop) async throws(Failure) -> UpstreamWebSocket.Opening {
        try await UpstreamWebSocket.open(request, on: loop, tls: tls, timeout: timeout, maximumMessageSize: maximumBodySize)
    }

    /// The upstream's response to `request`, whose URL is absolute, head and whole body within the
    /// timeout.
    package func fetch(_ request: Request) async throws(Failure) -> Response {
        try await fetch(request, relaying: { _ in nil }).response
    }

    /// The upstream's response to `request` and, for a stream, how its body arrived. A response is a
    /// stream when it is `text/event-stream` or states no `Content-Length` (chunked, or until the close):
    /// then `relay` is given its head as soon as it arrives and returns where its body goes as it comes
    /// (`nil` collects it whole). A stream is bounded by the timeout and the body limit like any
    /// response, but one that passes either after its head is cut there rather than failed: what came is
    /// kept, marked `Tonearm-Stream-Cut`, and its client's body ends.
    func fetch(
        _ request: Request, relaying relay: @escaping @Sendable (Response) -> StreamRelay?
    ) async throws(Failure) -> (response: Response, pacing: BodyPacing?) {
        let target = connections.target(of: request.url)
        var outgoing = HTTPClientRequest(url: target.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        // The upstream's own name, not the port connected to instead (--connect-to).
        if let host = target.host { outgoing.headers.add(name: "Host", value: host) }
        for field in HopByHop.removing(from: request.headers, also: ["host", "content-length"]) {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        let origin = UpstreamHost(ofURL: request.url)?.origin ?? request.url
        let client = client, timeout = timeout, maximumBodySize = maximumBodySize, outgoingRequest = outgoing, timer = timer
        do {
            // AsyncHTTPClient's deadline stops counting once the head arrives; withDeadline also bounds
            // the body, which an upstream may drip one byte at a time.
            let capture = StreamCapture()
            do {
                return try await withDeadline(timeout, sleep: timer.sleep(for:)) {
                    let response = try await client.execute(outgoingRequest, timeout: .nanoseconds(TonearmServer.nanoseconds(timeout)))
                    let headers = response.headers.map { HeaderField($0.name, $0.value) }
                    let head = Response(status: Int(response.status.code), headers: HopByHop.removing(from: headers))
                    guard Self.isStream(head, method: request.method), let relay = relay(head) else {
                        let body = try await response.body.collect(upTo: maximumBodySize)
                        return (Response(status: head.status, headers: head.headers, body: Array(buffer: body)), nil)
                    }
                    capture.begin(head, relay: relay)
                    for try await buffer in response.body {
                        let bytes = Array(buffer: buffer)
                        guard capture.append(bytes, limit: maximumBodySize) else {
                            return capture.cut(because: "the body passed the \(maximumBodySize)-byte limit (--max-body-size)")
                        }
                        try await relay.push(bytes)
                    }
                    return capture.complete()
                }
            } catch where capture.hasBegun && (!Task.isCancelled || capture.cutByServerStopping) {
                // Begun, a stream is answered already: what came is recorded, marked, and its client's body ends.
                if capture.cutByServerStopping {
                    return capture.cut(because: "tonearm stopped while the stream was being recorded")
                }
                if error is DeadlineExceeded {
                    return capture.cut(because: "the stream outlived the upstream timeout (\(timeout); --upstream-timeout)")
                }
                return capture.cut(because: "the upstream broke the stream: \(error)")
            }
        } catch is DeadlineExceeded {
            throw Self.timedOut(origin, after: timeout)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw Self.timedOut(origin, after: timeout)
        } catch let error as HTTPClientError where error == .connectTimeout {
            throw Failure(status: 504, message: "upstream \(origin) did not accept a connection in time (\(error))")
        } catch {
            throw Failure(status: 502, message: "upstream \(origin) could not be reached: \(error)")
        }
    }

    /// Whether `head` (the answer to a request with `method`) starts a stream: Server-Sent Events, or a
    /// body of no stated length.
    static func isStream(_ head: Response, method: String) -> Bool {
        guard method != "HEAD", head.status >= 200, head.status != 204, head.status != 304 else { return false }
        if MediaType.isEventStream(head.headers.first(named: "Content-Type")) { return true }
        return head.headers.first(named: "Content-Length") == nil
    }

    /// The 504 for an exchange that outlived the timeout, saying how to give upstreams longer.
    private static func timedOut(_ origin: String, after timeout: Duration) -> Failure {
        Failure(
            status: 504,
            message: "upstream \(origin) did not send its whole response within \(timeout) "
                + "(the upstream timeout: raise it with --upstream-timeout SECONDS or ServerConfiguration.upstreamTimeout)")
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}
