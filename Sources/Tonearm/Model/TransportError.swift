/// A network failure to simulate instead of answering, so tests can exercise error handling.
///
/// Bridges map these onto their platform's errors (for URLSession, `URLError` codes). More named failures
/// will come, so this is a struct with static members rather than an enum: write `.timedOut` or
/// `.other(code:message:)` as you would an enum case, compare with `==`, and read ``identifier``,
/// ``platformCode`` and ``message`` instead of a `switch`.
public struct TransportError: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case named(String)
        case other(code: Int, message: String)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// The request timed out.
    public static let timedOut = TransportError(.named("timedOut"))
    /// The device is offline.
    public static let notConnectedToInternet = TransportError(.named("notConnectedToInternet"))
    /// The connection dropped mid-exchange (closed without an answer).
    public static let networkConnectionLost = TransportError(.named("networkConnectionLost"))
    /// The server reset the connection (a TCP reset rather than a close).
    public static let connectionReset = TransportError(.named("connectionReset"))
    /// The server began a valid response and broke it off (a malformed chunk of its body).
    public static let badServerResponse = TransportError(.named("badServerResponse"))
    /// The server answered with bytes that are not an HTTP response.
    public static let cannotParseResponse = TransportError(.named("cannotParseResponse"))
    /// The host name did not resolve.
    public static let cannotFindHost = TransportError(.named("cannotFindHost"))
    /// The server refused or could not be reached.
    public static let cannotConnectToHost = TransportError(.named("cannotConnectToHost"))
    /// The TLS handshake failed.
    public static let secureConnectionFailed = TransportError(.named("secureConnectionFailed"))

    /// Any other failure, named by a platform-specific code and a human-readable message.
    public static func other(code: Int, message: String) -> TransportError {
        TransportError(.other(code: code, message: message))
    }

    /// Every named failure (all but ``other(code:message:)``), as cassettes may name them.
    public static let named: [TransportError] = [
        .timedOut, .notConnectedToInternet, .networkConnectionLost, .connectionReset, .badServerResponse,
        .cannotParseResponse, .cannotFindHost, .cannotConnectToHost, .secureConnectionFailed,
    ]

    /// A stable identifier, as written in cassettes (`timedOut`, `networkConnectionLost`, ...), and
    /// `other(CODE)` for ``other(code:message:)``.
    public var identifier: String {
        switch storage {
        case .named(let identifier): identifier
        case .other(let code, _): "other(\(code))"
        }
    }

    /// The error named by `identifier`, for the identifiers of the named failures.
    public init?(identifier: String) {
        guard let match = Self.named.first(where: { $0.identifier == identifier }) else { return nil }
        self = match
    }

    /// The platform-specific code of ``other(code:message:)``; `nil` for the named failures.
    public var platformCode: Int? {
        if case .other(let code, _) = storage { return code }
        return nil
    }

    /// The message of ``other(code:message:)``; `nil` for the named failures.
    public var message: String? {
        if case .other(_, let message) = storage { return message }
        return nil
    }

    /// A human-readable description.
    public var description: String {
        switch storage {
        case .other(let code, let message): "transport error \(code): \(message)"
        case .named(let identifier): "transport error: \(identifier)"
        }
    }
}
