import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Tonearm
import TonearmReplay

/// An AsyncHTTPClient front for a Tonearm session: it records, replays and stubs `HTTPClientRequest`s
/// with the same modes, strategies, cassettes, traits and miss reports as URLSession.
///
/// Hand it to code that takes an ``HTTPClientExecuting`` instead of an `HTTPClient`:
/// ```swift
/// let tonearm = TonearmHTTPClient(upstream: HTTPClient.shared)   // answers from ReplaySession.current
/// let response = try await tonearm.execute(HTTPClientRequest(url: "https://api.example.com/me"), timeout: .seconds(5))
/// ```
/// Streaming request bodies are collected before matching (a body is part of the key), up to
/// ``maximumRequestBodySize``; response bodies are streamed back in chunks. A replayed transport error
/// is thrown as the `HTTPClientError` AHC reports for it, a replayed delay is waited out (and counts
/// against `timeout`), and a miss is thrown as a `TonearmReplay/ReplayFailure` carrying its report.
///
/// Recording sends each request once through `upstream`; an `HTTPClient` follows redirects itself
/// (its `redirectConfiguration`), so what is recorded is the final answer, under the first URL.
public struct TonearmHTTPClient: HTTPClientExecuting {
    /// Performs real exchanges when the session's mode reaches the network; `nil` for replay only.
    public let upstream: (any HTTPClientExecuting)?
    /// The largest response body read from `upstream` for recording, in bytes.
    public let maximumResponseBodySize: Int
    /// The largest request body collected for matching, in bytes; a longer one fails the request with
    /// `NIOTooManyBytesError` before anything is matched or sent.
    public let maximumRequestBodySize: Int
    private let fixedSession: ReplaySession?

    /// Chunk size of streamed response bodies.
    static let chunkSize = 16 * 1024

    /// A client answering from `session`, or, when it is `nil`, from the session bound to the running
    /// task (`TonearmReplay/ReplaySession/current`, set by TonearmTesting's `.cassette` and `.stubs`
    /// traits) at the time of each request.
    ///
    /// - Parameters:
    ///   - session: The session to answer from; `nil` follows the test's scope.
    ///   - upstream: The client that reaches the network in recording and passthrough modes.
    ///   - maximumResponseBodySize: The largest response body recorded, 64 MiB by default.
    ///   - maximumRequestBodySize: The largest request body collected for matching, 64 MiB by default.
    public init(
        session: ReplaySession? = nil, upstream: (any HTTPClientExecuting)? = nil,
        maximumResponseBodySize: Int = 64 * 1024 * 1024, maximumRequestBodySize: Int = 64 * 1024 * 1024
    ) {
        fixedSession = session
        self.upstream = upstream
        self.maximumResponseBodySize = maximumResponseBodySize
        self.maximumRequestBodySize = maximumRequestBodySize
    }

    /// The session the next request is answered from: the one given, else the scope's, else one that
    /// fails every request saying no session is active.
    public var session: ReplaySession {
        fixedSession ?? ReplaySession.current ?? .unscoped
    }

    /// Answers `request` from the session (or records it through ``upstream``).
    ///
    /// - Throws: `HTTPClientError.deadlineExceeded` when the answer (a replayed delay included) takes
    ///   longer than `timeout`; the `HTTPClientError` for a replayed transport error; a
    ///   `TonearmReplay/ReplayFailure` for a miss or a finished session; `TonearmReplay/MissingUpstreamError` when
    ///   the request must go to the network and there is no ``upstream``; `NIOTooManyBytesError` for a
    ///   request body over ``maximumRequestBodySize``; the upstream's own errors.
    public func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        let session = self.session
        let body = try await collect(request.body)
        let captured = Request(
            method: request.method.rawValue, url: request.url,
            headers: request.headers.map { HeaderField($0.name, $0.value) }, body: body)
        let response: Response
        let pacing: BodyPacing?
        do {
            (response, pacing) = try await Self.within(timeout) {
                try await session.respondPaced(
                    to: captured, network: { _ in try await fetch(request, body: body, timeout: timeout) }, reportMiss: nil)
            }
        } catch let failure as ReplayFailure {
            if let error = failure.simulatedError?.httpClientError { throw error }
            throw failure
        }
        return HTTPClientResponse(
            status: HTTPResponseStatus(statusCode: response.status),
            headers: HTTPHeaders(response.headers.map { ($0.name, $0.value) }),
            body: pacing.map { .stream(PacedDelivery(response.body, $0).map { ByteBuffer(bytes: $0) }) }
                ?? .stream(Self.chunks(of: response.body)))
    }

    /// One real exchange through ``upstream``, its body read whole so it can be recorded.
    private func fetch(_ request: HTTPClientRequest, body: [UInt8], timeout: TimeAmount) async throws -> Response {
        guard let upstream else { throw MissingUpstreamError(method: request.method.rawValue, url: request.url, bridge: "TonearmHTTPClient") }
        var resent = request
        resent.body = body.isEmpty ? nil : .bytes(ByteBuffer(bytes: body))
        let response = try await upstream.execute(resent, timeout: timeout)
        let received = try await response.body.collect(upTo: maximumResponseBodySize)
        return Response(
            status: Int(response.status.code), headers: response.headers.map { HeaderField($0.name, $0.value) },
            body: Array(received.readableBytesView))
    }

    /// Every byte of a (possibly streaming) request body, up to ``maximumRequestBodySize``.
    private func collect(_ body: HTTPClientRequest.Body?) async throws -> [UInt8] {
        guard let body else { return [] }
        do {
            return Array(buffer: try await body.collect(upTo: maximumRequestBodySize))
        } catch is NIOTooManyBytesError {
            // NIO's error carries what was left of the limit when the chunk overflowed it; name the limit.
            throw NIOTooManyBytesError(maxBytes: maximumRequestBodySize)
        }
    }

    /// `body` as a stream of chunks, as a server's response body arrives.
    private static func chunks(of body: [UInt8]) -> AsyncStream<ByteBuffer> {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        var start = 0
        while start < body.count {
            let end = min(start + chunkSize, body.count)
            continuation.yield(ByteBuffer(bytes: body[start..<end]))
            start = end
        }
        continuation.finish()
        return stream
    }

    /// `operation`'s result, or `HTTPClientError.deadlineExceeded` once `timeout` has passed (the
    /// operation is then cancelled, which ends a replayed delay or the upstream request).
    private static func within<Result: Sendable>(
        _ timeout: TimeAmount, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        do {
            return try await withDeadline(.nanoseconds(timeout.nanoseconds), operation)
        } catch is DeadlineExceeded {
            throw HTTPClientError.deadlineExceeded
        }
    }
}
