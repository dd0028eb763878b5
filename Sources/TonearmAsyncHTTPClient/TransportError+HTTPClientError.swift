import AsyncHTTPClient
import Tonearm

extension TransportError {
    /// The `HTTPClientError` AsyncHTTPClient reports for the nearest real failure, so code that handles
    /// AHC's errors handles Tonearm's simulated ones too; `nil` for failures AHC has no error for
    /// (`TransportError.other(code:message:)`), which ``TonearmHTTPClient`` throws as a
    /// `ReplayFailure`.
    public var httpClientError: HTTPClientError? {
        switch self {
        case .timedOut: .deadlineExceeded
        case .networkConnectionLost, .connectionReset: .remoteConnectionClosed
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet: .connectTimeout
        case .secureConnectionFailed: .tlsHandshakeTimeout
        default: nil
        }
    }
}
