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
final class UpstreamClient: Sendable {
    /// Why an upstream exchange failed.
    struct Failure: Error, Sendable {
        /// 502 when the upstream could not be reached or broke the exchange, 504 when it timed out.
        var status: Int
        var message: String
    }

    private let client: HTTPClient
    private let timeout: Duration
    private let maximumBodySize: Int
    private let timer: LoopTimer

    init(group: any EventLoopGroup, timeout: Duration, maximumBodySize: Int, tls: TLSConfiguration = .makeClientConfiguration()) {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, decompression: .disabled)
        // Connecting is bounded on its own (docs/server.md, "The upstream deadline"): a host that has
        // not accepted in 10 s is down or filtered, and saying so beats waiting out the whole deadline.
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10))
        // An upstream that refuses the connection is down: answer 502 at once, as a direct connection
        // would fail, rather than retry with backoff until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        timer = LoopTimer(group: group)
    }

    /// The upstream's response to `request`, whose URL is absolute, head and whole body within the
    /// timeout.
    func fetch(_ request: Request) async throws(Failure) -> Response {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for field in HopByHop.removing(from: request.headers, also: ["host", "content-length"]) {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if !request.body.isEmpty { outgoing.body = .bytes(ByteBuffer(bytes: request.body)) }
        let origin = UpstreamHost(ofURL: request.url)?.origin ?? request.url
        let client = client, timeout = timeout, maximumBodySize = maximumBodySize, outgoingRequest = outgoing, timer = timer
        do {
            // AsyncHTTPClient's deadline stops counting once the head arrives; withDeadline also bounds
            // the body, which an upstream may drip one byte at a time.
            return try await withDeadline(timeout, sleep: timer.sleep(for:)) {
                let response = try await client.execute(outgoingRequest, timeout: .nanoseconds(TonearmServer.nanoseconds(timeout)))
                let body = try await response.body.collect(upTo: maximumBodySize)
                let headers = response.headers.map { HeaderField($0.name, $0.value) }
                return Response(
                    status: Int(response.status.code), headers: HopByHop.removing(from: headers),
                    body: Array(buffer: body))
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
