import Tonearm

/// What the server sends for one request, in the one form every answer takes on its way out: a
/// message (a head and a body, or a replayed answer kept encoded) and how the exchange ends. Every
/// stage's answer and every answer the connection makes itself (a refused body, a slow client's 408,
/// a malformed request's 400, `100 Continue`) becomes one, and only ``ResponseWriter`` turns it into
/// bytes.
///
/// It says nothing of framing: `Content-Length`, `Connection` and hop-by-hop headers depend on the
/// request answered, which the writer is given with it (``ResponseWrite``).
///
/// Small on purpose: the hot case (a replayed answer kept encoded, kept alive) is one reference and
/// two tags, so the value and the request's framing travel through NIO's pipeline without a box
/// (`NIOAny` holds 24 bytes inline); the other messages are `indirect`.
package struct OutgoingResponse: Sendable {
    /// What goes on the wire before the ending.
    enum Message: Sendable {
        /// A head and a body, framed by the writer for the request they answer; `keep` is where their
        /// encoding for the common request is kept once written (a replayed track's or rule's answer,
        /// the same each time), `nil` when it is not to be kept.
        indirect case parts(Head, Body, keep: EncodedResponseCache.Slot?)
        /// A replayed answer whose encoding for the common request (HTTP/1.1, kept alive, not `HEAD`)
        /// the cassette keeps: written as those bytes, or framed anew from its track's response for
        /// any other request.
        case kept(EncodedResponseCache.Kept)
    }

    /// The status line and the header fields as the answer has them, before framing.
    package struct Head: Sendable, Equatable {
        var status: Int
        /// The status line's reason phrase when the answer has its own (a WireMock `statusMessage`);
        /// otherwise the standard one for ``status``.
        var reasonPhrase: String?
        var fields: [HeaderField]

        init(status: Int, reasonPhrase: String? = nil, fields: [HeaderField] = []) {
            self.status = status
            self.reasonPhrase = reasonPhrase
            self.fields = fields
        }
    }

    /// What follows the head.
    enum Body: Sendable, Equatable {
        /// No body (an interim answer, a tunnel's 200).
        case none
        /// The whole body at once.
        case bytes([UInt8])
        /// The whole body at once, framed chunked to HTTP/1.1 (`Transfer-Encoding: chunked`, one chunk
        /// and the last, written with the head) instead of stating its length: as WireMock sends a stub's
        /// answer when the stub sets no `Content-Length`. HTTP/1.0 gets the length.
        case chunked([UInt8])
        /// A body written over time as its source produces it: a live event feed, or a body known in
        /// advance written at its parts' times (a recorded stream, WireMock's `chunkedDribbleDelay`).
        case stream(BodyStream)

        /// The body's bytes, whole; none for a stream whose bytes are not known in advance.
        var bytes: [UInt8] {
            switch self {
            case .none: []
            case .stream(let stream): stream.knownBody ?? []
            case .bytes(let bytes), .chunked(let bytes): bytes
            }
        }
    }

    /// How the exchange ends once the message is written.
    enum Ending: Sendable, Equatable {
        /// An interim (1xx) head: the final answer to the same request follows.
        case interim
        /// The connection stays open for the next request.
        case keepAlive
        /// The answer says `Connection: close`, and the connection closes once it is written (or after
        /// a grace period, for a client that does not read it).
        case close
        /// No answer: the connection fails the way a recorded transport error says; the message is
        /// not sent.
        case fault(ConnectionFault)
        /// The answer to an intercepted `CONNECT`: the head alone, then TLS to `host` on the connection.
        indirect case tunnel(UpstreamHost)
        /// The `101` accepting a WebSocket handshake: the head alone, then the connection runs `plan`.
        case webSocket(WebSocketPlan)
    }

    var message: Message
    var ending: Ending

    /// `response` as it is sent, kept alive unless `ending` says otherwise; its body `chunked` when
    /// asked (``Body/chunked(_:)``), even an empty one.
    init(
        _ response: Response, reasonPhrase: String? = nil, ending: Ending = .keepAlive, keep: EncodedResponseCache.Slot? = nil,
        chunked: Bool = false
    ) {
        let body: Body = chunked ? .chunked(response.body) : response.body.isEmpty ? .none : .bytes(response.body)
        message = .parts(Head(status: response.status, reasonPhrase: reasonPhrase, fields: response.headers), body, keep: keep)
        self.ending = ending
    }

    init(message: Message, ending: Ending) {
        self.message = message
        self.ending = ending
    }

    /// `100 Continue`: the client may send the body it announced.
    static let `continue` = OutgoingResponse(
        message: .parts(Head(status: 100), .none, keep: nil), ending: .interim)

    /// The answer to an intercepted `CONNECT`: 200 with no fields, then TLS to `host`.
    static func tunnel(to host: UpstreamHost) -> OutgoingResponse {
        OutgoingResponse(
            message: .parts(Head(status: 200, reasonPhrase: "Connection Established"), .none, keep: nil), ending: .tunnel(host))
    }

    /// The connection failed as `fault` says, with no answer.
    static func fault(_ fault: ConnectionFault) -> OutgoingResponse {
        OutgoingResponse(message: .parts(Head(status: 0), .none, keep: nil), ending: .fault(fault))
    }

    /// The response this sends, whole (a kept answer's read from its track); `nil` for a fault.
    var response: Response? {
        switch (message, ending) {
        case (_, .fault): nil
        case (.kept(let kept), _): kept.response
        case (.parts(let head, let body, _), _): Response(status: head.status, headers: head.fields, body: body.bytes)
        }
    }
}

extension OutgoingResponse.Message {
    /// Whether writing the body takes time after its head (a dribble, a stream): the exchange ends when
    /// the writer completes it, not when it is handed to the writer. Matched without binding the body,
    /// so that asking copies nothing on the request path.
    var bodyTakesTime: Bool {
        switch self {
        case .parts(_, .stream, _): true
        case .parts, .kept: false
        }
    }
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
