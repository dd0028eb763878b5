/// A network failure to simulate instead of answering, so tests can exercise error handling.
///
/// Bridges map these onto their platform's errors (for URLSession, `URLError` codes).
public enum TransportError: Sendable, Hashable, CustomStringConvertible {
    /// The request timed out.
    case timedOut
    /// The device is offline.
    case notConnectedToInternet
    /// The connection dropped mid-exchange.
    case networkConnectionLost
    /// The host name did not resolve.
    case cannotFindHost
    /// The server refused or could not be reached.
    case cannotConnectToHost
    /// The TLS handshake failed.
    case secureConnectionFailed
    /// Any other failure, named by a platform-specific code and a human-readable message.
    case other(code: Int, message: String)

    /// A stable lowercase identifier, as written in cassettes (`timedOut`, `networkConnectionLost`, ...).
    public var identifier: String {
        switch self {
        case .timedOut: "timedOut"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .networkConnectionLost: "networkConnectionLost"
        case .cannotFindHost: "cannotFindHost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .secureConnectionFailed: "secureConnectionFailed"
        case .other(let code, _): "other(\(code))"
        }
    }

    /// The error named by `identifier`, for the identifiers of the named cases.
    public init?(identifier: String) {
        let known: [TransportError] = [
            .timedOut, .notConnectedToInternet, .networkConnectionLost, .cannotFindHost,
            .cannotConnectToHost, .secureConnectionFailed,
        ]
        guard let match = known.first(where: { $0.identifier == identifier }) else { return nil }
        self = match
    }

    /// A human-readable description.
    public var description: String {
        switch self {
        case .other(let code, let message): "transport error \(code): \(message)"
        default: "transport error: \(identifier)"
        }
    }
}
