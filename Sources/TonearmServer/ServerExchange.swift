import Tonearm

/// A request as it arrived on a connection, body complete.
struct ServerRequest: Sendable {
    var method: String
    /// The request-line target: origin form (`/host/path?q`) or absolute form (`http://host/path`).
    var target: String
    var headers: [HeaderField]
    var body: [UInt8]
}

/// What the connection does with a request: answer it, or fail the connection the way a recorded
/// transport error says.
enum ServerReply: Sendable {
    case response(Response)
    case fault(ConnectionFault)
    /// Answer `CONNECT` with 200 and terminate TLS for `host` on the connection.
    case tunnel(UpstreamHost)
}

/// How a recorded transport error is played on a connection; the client sees a network failure.
///
/// - `networkConnectionLost` and `timedOut`: the connection is closed without a response (a clean FIN;
///   clients report "connection lost" / "empty reply").
/// - `cannotConnectToHost`, `cannotFindHost`, `notConnectedToInternet`, `secureConnectionFailed` and any
///   other error: the connection is reset (RST; clients report "connection reset by peer").
enum ConnectionFault: Sendable, Equatable {
    case close
    case reset

    init(_ error: TransportError) {
        switch error {
        case .networkConnectionLost, .timedOut: self = .close
        default: self = .reset
        }
    }
}
