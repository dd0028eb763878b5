import AsyncHTTPClient
import NIOCore

/// Something that executes AsyncHTTPClient requests: `HTTPClient` itself, or ``TonearmHTTPClient``.
///
/// Code that takes an `any HTTPClientExecuting` instead of an `HTTPClient` can be handed Tonearm in
/// tests and the real client in production, the way AsyncHTTPClient users inject clients today.
public protocol HTTPClientExecuting: Sendable {
    /// Executes `request`, failing when the whole exchange takes longer than `timeout`.
    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse
}

extension HTTPClient: HTTPClientExecuting {
    /// Executes `request` with AsyncHTTPClient's default logger (none).
    public func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await execute(request, timeout: timeout, logger: nil)
    }
}
