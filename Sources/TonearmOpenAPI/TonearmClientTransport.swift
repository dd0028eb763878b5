import Foundation
import HTTPTypes
import OpenAPIRuntime
import Tonearm
import TonearmHTTPTypes
import TonearmReplay

/// A swift-openapi-runtime `ClientTransport` that records, replays and stubs through Tonearm, wrapping
/// the transport that reaches the network (URLSession's, AsyncHTTPClient's, or any other).
///
/// A generated client gets record/replay by changing the transport it is given:
/// ```swift
/// let client = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: TonearmClientTransport(upstream: URLSessionTransport()))
/// ```
/// Requests are matched on the full URL (the server URL joined with the operation's path), method,
/// headers and collected body, exactly like URLSession's. A miss, a replayed transport error or a
/// finished session is thrown as a `TonearmReplay/ReplayFailure`, which the generated client wraps
/// in its `ClientError` as the underlying error.
public struct TonearmClientTransport: ClientTransport {
    /// Performs real exchanges when the session's mode reaches the network; `nil` for replay only.
    public let upstream: (any ClientTransport)?
    /// The largest request or response body collected for matching and recording, in bytes.
    public let maximumBodySize: Int
    private let fixedSession: ReplaySession?

    /// A transport answering from `session`, or, when it is `nil`, from the session bound to the running
    /// task (`TonearmReplay/ReplaySession/current`, set by TonearmTesting's traits) at each request.
    ///
    /// - Parameters:
    ///   - session: The session to answer from; `nil` follows the test's scope.
    ///   - upstream: The transport that reaches the network in recording and passthrough modes.
    ///   - maximumBodySize: The largest body collected, 64 MiB by default.
    public init(
        session: ReplaySession? = nil, upstream: (any ClientTransport)? = nil, maximumBodySize: Int = 64 * 1024 * 1024
    ) {
        fixedSession = session
        self.upstream = upstream
        self.maximumBodySize = maximumBodySize
    }

    /// The session the next request is answered from: the one given, else the scope's, else one that
    /// fails every request saying no session is active.
    public var session: ReplaySession {
        fixedSession ?? ReplaySession.current ?? .unscoped
    }

    /// Answers one operation's request from the session, or records it through ``upstream``.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let requestBody = try await collect(body)
        var captured = Request(request, body: requestBody)
        captured.url = Self.join(baseURL, request.path ?? "/")
        let (response, pacing) = try await session.respondPaced(to: captured, network: { _ in
            guard let upstream else { throw MissingUpstreamError(method: captured.method, url: captured.url, bridge: "TonearmClientTransport") }
            let (head, received) = try await upstream.send(
                request, body: body.map { _ in HTTPBody(requestBody) }, baseURL: baseURL, operationID: operationID)
            return Response(head, body: try await collect(received))
        }, reportMiss: nil)
        guard !response.body.isEmpty else { return (try HTTPResponse(response), nil) }
        // A replayed stream's body comes in its parts at their times (ReplaySession.streamPacing).
        let body = pacing.map {
            HTTPBody(PacedDelivery(response.body, $0), length: .known(Int64(response.body.count)), iterationBehavior: .single)
        } ?? HTTPBody(response.body)
        return (try HTTPResponse(response), body)
    }

    private func collect(_ body: HTTPBody?) async throws -> [UInt8] {
        guard let body else { return [] }
        return try await [UInt8](collecting: body, upTo: maximumBodySize)
    }

    /// The request's URL as URLSession's and AsyncHTTPClient's transports build it: the server URL
    /// with the operation's path (and query) appended.
    static func join(_ baseURL: URL, _ path: String) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + (path.hasPrefix("/") ? path : "/" + path)
    }
}
