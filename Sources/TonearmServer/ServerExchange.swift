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
    /// A response that is the same each time it answers (a replayed track or rule), whose encoding
    /// `encoded` keeps.
    case replayed(Response, encoded: EncodedAnswers.Slot)
    /// A replayed answer the cassette keeps encoded (``Answer/Content/kept(_:)``).
    case kept(EncodedAnswers.Kept)
    /// A response whose status line carries its own reason phrase (a WireMock `statusMessage`).
    case responseWithReason(Response, reasonPhrase: String)
    /// A response whose body is written in pieces, a pause before each (a WireMock `chunkedDribbleDelay`).
    indirect case dribbled(Response, reasonPhrase: String?, dribble: Dribble)
    case fault(ConnectionFault)
    /// Answer `CONNECT` with 200 and terminate TLS for `host` on the connection.
    case tunnel(UpstreamHost)
}

/// How a recorded transport error is played on a connection; the client sees a network failure. These
/// are WireMock's faults, which its `fault` names (in parentheses).
///
/// - `networkConnectionLost` and `timedOut`: the connection is closed without a response (a clean FIN;
///   clients report "connection lost" / "empty reply"; `EMPTY_RESPONSE`).
/// - `cannotParseResponse`: bytes that are not HTTP, then a close (`RANDOM_DATA_THEN_CLOSE`).
/// - `badServerResponse`: a valid 200 head announcing a chunked body, then a chunk that is not one, then a
///   close (`MALFORMED_RESPONSE_CHUNK`).
/// - `connectionReset`, `cannotConnectToHost`, `cannotFindHost`, `notConnectedToInternet`,
///   `secureConnectionFailed` and any other error: the connection is reset (RST; clients report
///   "connection reset by peer"; `CONNECTION_RESET_BY_PEER`).
enum ConnectionFault: Sendable, Equatable {
    case close
    case garbageThenClose
    case malformedChunk
    case reset

    init(_ error: TransportError) {
        switch error {
        case .networkConnectionLost, .timedOut: self = .close
        case .cannotParseResponse: self = .garbageThenClose
        case .badServerResponse: self = .malformedChunk
        default: self = .reset
        }
    }
}
