import Foundation
import Tonearm

/// One exchange the server handled: when, what was asked, what was answered and by what.
public struct JournalEntry: Sendable {
    /// What answered a request: a kind from one vocabulary, and which track, rule, mapping or host.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        /// What kind of thing answered.
        public var kind: Kind
        /// Which track, rule or host, or why the request was refused or missed.
        public var detail: String
        /// The position of the track, or of the rule, that answered in the engine of the cassette in
        /// force then, when a track or rule did: what the inspector shows of it beside the exchange.
        var position: Int?

        /// Creates a source.
        public init(kind: Kind, detail: String) {
            self.kind = kind
            self.detail = detail
        }

        /// A source naming the track or rule at `position`.
        init(kind: Kind, detail: String, position: Int) {
            self.init(kind: kind, detail: detail)
            self.position = position
        }

        /// `kind: detail`.
        public var description: String { detail.isEmpty ? kind.rawValue : "\(kind.rawValue): \(detail)" }
    }

    /// When the request arrived.
    public var time: Date
    /// The client's IP address, as WireMock's serve events log it (`clientIp`); `nil` when unknown.
    package var peer: ClientAddress?
    /// ``peer`` as text.
    package var clientAddress: String? { peer?.text }
    /// The request, with the upstream URL it stands for.
    public var request: Request
    /// The response sent, or `nil` when the connection was faulted instead.
    public var response: Response? {
        get {
            switch storedResponse {
            case .response(let response): response
            case .kept(let kept): kept.response
            }
        }
        set { storedResponse = .response(newValue) }
    }
    /// The status sent, `nil` for a fault: a replay's is read from its kept status line, without
    /// reading its track (the inspector's list shows every entry's).
    var status: Int? {
        switch storedResponse {
        case .response(let response): response?.status
        case .kept(let kept): kept.status
        }
    }
    /// What answered.
    public var source: Source
    /// From the end of the request to the end of the answer, including simulated delays.
    public var latency: Duration
    /// The exchange's number since the server started, from 0; set by the journal. WireMock serve-event
    /// ids are made from it.
    public internal(set) var sequence = 0
    /// The full sizes of the bodies the journal keeps cut short (longer than 64 KiB, or than
    /// `Journal/recordableBodyLimit` for a proxied exchange); `nil` when it keeps them whole.
    public internal(set) var truncation: Truncation?
    /// Whether the journal keeps the bodies whole up to ``Journal/recordableBodyLimit`` rather than
    /// 64 KiB: a proxied exchange, which WireMock's recorder may turn into a mapping.
    var keepsWholeBodies = false
    private(set) var storedResponse: StoredResponse
    /// How a streamed exchange went, once it ended (``Journal/complete(_:with:)``). One reference rather
    /// than the fields: every exchange is journaled, nearly none is a stream.
    private var streamStorage: StreamStorage?

    /// How the response's body arrived over time, for a stream: a relayed Server-Sent Events or chunked
    /// answer once it has ended (its body is then the whole body, as the journal keeps it), or a replayed
    /// track's paced body. `nil` for a body sent whole.
    public var pacing: BodyPacing? { streamStorage?.pacing }
    /// The WebSocket conversation, once the socket has ended: what was recorded from the upstream, or
    /// what a replay exchanged with the client (its messages, the ones played to it, the first close).
    /// `nil` for any other exchange, and while the socket is open.
    public var webSocket: WebSocketConversation? { streamStorage?.webSocket }
    /// How many of the conversation's messages the journal did not keep (its bodies' limit bounds a
    /// conversation's payloads too); 0 when it kept them all.
    public var webSocketMessagesLeftOut: Int { streamStorage?.webSocketMessagesLeftOut ?? 0 }

    /// Sets what a stream turned out to be.
    mutating func setStream(pacing: BodyPacing?, webSocket: WebSocketConversation?, webSocketMessagesLeftOut: Int = 0) {
        streamStorage = pacing == nil && webSocket == nil
            ? nil : StreamStorage(pacing: pacing, webSocket: webSocket, webSocketMessagesLeftOut: webSocketMessagesLeftOut)
    }

    /// Holds a stream's record; never changed once made.
    private final class StreamStorage: Sendable {
        let pacing: BodyPacing?
        let webSocket: WebSocketConversation?
        let webSocketMessagesLeftOut: Int

        init(pacing: BodyPacing?, webSocket: WebSocketConversation?, webSocketMessagesLeftOut: Int) {
            self.pacing = pacing
            self.webSocket = webSocket
            self.webSocketMessagesLeftOut = webSocketMessagesLeftOut
        }
    }

    /// How an entry holds its response.
    enum StoredResponse: Sendable {
        /// The response itself (`nil` for a fault).
        case response(Response?)
        /// A replayed answer the cassette keeps encoded: its response is read from its track when the
        /// entry is read, so journaling a replay never decodes the track. (Its body is never cut: a kept
        /// answer is at most ``EncodedResponseCache/maximumAnswerBytes``, under the journal's limit.)
        case kept(EncodedResponseCache.Kept)
    }

    /// An entry for an exchange that arrived at `time` and was answered with `response`.
    init(time: Date, request: Request, response: StoredResponse, source: Source, latency: Duration) {
        self.time = time
        self.request = request
        storedResponse = response
        self.source = source
        self.latency = latency
    }

    /// The entry with its response read from its track, when it is still held as a hit: an entry that
    /// outlives the cassette it was answered from must not keep that cassette's tracks alive.
    func withResponseRead() -> JournalEntry {
        guard case .kept = storedResponse else { return self }
        var entry = self
        entry.storedResponse = .response(response)
        return entry
    }

    /// Which bodies of an entry the journal cut to its stored limit, and their full sizes.
    public struct Truncation: Sendable, Hashable, CustomStringConvertible {
        /// The request body's full size, when it was cut.
        public var requestBodyBytes: Int?
        /// The response body's full size, when it was cut.
        public var responseBodyBytes: Int?

        /// A truncation of the bodies whose full sizes are given.
        public init(requestBodyBytes: Int? = nil, responseBodyBytes: Int? = nil) {
            self.requestBodyBytes = requestBodyBytes
            self.responseBodyBytes = responseBodyBytes
        }

        /// `request body cut from 1048576 bytes; response body cut from …`, naming what was cut.
        public var description: String {
            let parts = [("request", requestBodyBytes), ("response", responseBodyBytes)].compactMap { part, size in
                size.map { "\(part) body cut from \($0) bytes" }
            }
            return parts.joined(separator: "; ")
        }
    }
}

extension JournalEntry.Source {
    /// The kinds of answerer, one vocabulary for the journal, the control API (`source`) and WireMock's
    /// serve events. A struct rather than an enum so that new kinds are not a breaking change; its raw
    /// value is the name the control API's JSON and the HAR journal's comments show.
    public struct Kind: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The kind's name, as the control API shows it.
        public var rawValue: String

        /// The kind named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The kind named by a literal, so `entry.source.kind == "miss"` reads as it always did.
        public init(stringLiteral value: String) {
            self.init(rawValue: value)
        }

        /// The kind's name.
        public var description: String { rawValue }

        /// A track of the cassette as loaded.
        public static let track: Kind = "track"
        /// A rule of the cassette or of a rule file.
        public static let rule: Kind = "rule"
        /// A track added since the cassette was loaded (recorded, or an exact stub).
        public static let recorded: Kind = "recorded"
        /// A pattern stub added at runtime (``TonearmServer/addStubs(_:syntax:)``, `POST /__tonearm/stubs`).
        public static let stub: Kind = "stub"
        /// A WireMock stub mapping; the detail is its id.
        public static let mapping: Kind = "mapping"
        /// The upstream, reached over the network; the detail is its origin.
        public static let network: Kind = "network"
        /// Nothing answered; the detail is why.
        public static let miss: Kind = "miss"
        /// The server refused the request before matching (a host not allowed, CONNECT, no upstream).
        public static let refused: Kind = "refused"
        /// The upstream could not be reached, broke the exchange or timed out.
        public static let upstreamError: Kind = "upstream-error"
        /// A replayed transport error: the connection was closed or reset.
        public static let fault: Kind = "fault"
        /// An exchange cancelled before it was answered (the server's shutdown timeout passed, or the
        /// client left) while a delay was waited out or an upstream was fetched; answered 503, nothing of
        /// it recorded.
        public static let cancelled: Kind = "cancelled"
        /// The control API under `/__tonearm/` (never journaled).
        public static let control: Kind = "control"
        /// WireMock's admin API under `/__admin/` (never journaled).
        public static let admin: Kind = "admin"
    }
}
