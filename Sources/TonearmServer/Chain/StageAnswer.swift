import Tonearm

/// What a stage answers a request with, before it is written: every stage returns this one form, so
/// one place (``AnswerFinisher``) waits out delays, turns them into outgoing responses and journals them.
///
/// A class, not a struct: an answer passes through every stage's return, the chain, the finisher and
/// delays, and as a value its ~500 bytes (a miss report, a response, the slot's hit) were copied at
/// each hop, about 4,000 instructions of a 47,000-instruction replay hit (docs/benchmarks-history.md,
/// "One answer object"). One allocation per answered request costs far less. It never changes once
/// built.
package final class StageAnswer: Sendable {
    /// What the client is sent.
    package enum Content: Sendable {
        /// A response, as it is to be sent.
        case response(Response)
        /// A replayed track's or rule's response whose encoding the cassette keeps: written from those
        /// bytes, the response itself read from its track only where something needs it (a `HEAD`, an
        /// HTTP/1.0 or closing connection, the journal when it is read), as reading it may decode the
        /// track.
        case kept(EncodedResponseCache.Kept)
        /// A replayed transport error, played as a closed or reset connection.
        case fault(TransportError)
        /// Nothing answered: the miss reply (status, `Tonearm-Miss`, the report) for the first miss the
        /// chain collected, naming every place looked in (`alsoMissed`, in the chain's order).
        indirect case miss(StageMiss, alsoMissed: [StageMiss])
        /// An intercepted `CONNECT`: answered 200, then TLS to `host` is terminated on the connection.
        case tunnel(UpstreamHost)
        /// A head, then a body of no known length that `stream` writes over time: the inspector's live
        /// event feed (not journaled), or an upstream's stream relayed while it is recorded (journaled
        /// by its head, the entry completed with the whole body when `outcome` says the stream ended).
        indirect case stream(OutgoingResponse.Head, BodyStream, outcome: StreamOutcome?)
        /// A WebSocket handshake accepted with `head` (a `101`); the connection then runs `plan`.
        indirect case webSocket(OutgoingResponse.Head, WebSocketPlan)
    }

    package let content: Content
    /// What answered, for the journal.
    package let source: JournalEntry.Source
    /// The request as the journal keeps it (with the upstream URL it stands for); `nil` for calls that
    /// are not journaled (the control and admin APIs: the journal is about the app's traffic).
    package let journaled: Request?
    /// How long to wait before answering (a replayed track's or a mapping's delay).
    package let delay: Duration?
    /// A line for the server's log (a refusal, an upstream failure).
    package let logLine: String?
    /// The reason phrase of the status line, when the answer has its own (a mapping's `statusMessage`).
    package let reasonPhrase: String?
    /// How the body is written over time, when it is not written at once.
    package let pacing: AnswerPacing?
    /// Whether the journal keeps the exchange's bodies whole (up to ``Journal/recordableBodyLimit``):
    /// an upstream's answer through a proxy mapping, which WireMock's recorder may turn into a mapping.
    package let keepsWholeBodies: Bool
    /// Where the answer's encoding is kept, when it is the same each time (a replayed track or rule).
    package let encoded: EncodedResponseCache.Slot?
    /// Whether the body goes out chunked rather than with its length (``OutgoingResponse/Body/chunked(_:)``):
    /// a WireMock stub's answer that sets no `Content-Length`, as WireMock sends it.
    package let chunked: Bool

    package init(
        content: Content, source: JournalEntry.Source, journaled: Request? = nil, delay: Duration? = nil, logLine: String? = nil,
        reasonPhrase: String? = nil, pacing: AnswerPacing? = nil, keepsWholeBodies: Bool = false, encoded: EncodedResponseCache.Slot? = nil,
        chunked: Bool = false
    ) {
        self.content = content
        self.source = source
        self.journaled = journaled
        self.delay = delay
        self.logLine = logLine
        self.reasonPhrase = reasonPhrase
        self.pacing = pacing
        self.keepsWholeBodies = keepsWholeBodies
        self.encoded = encoded
        self.chunked = chunked
    }

    /// The answer to an exchange cancelled in flight (a delay waited out, an upstream fetch): 503, what
    /// happened and how to allow more time; `journaled` as the cancelled answer would have been.
    package static func cancelled(journaled: Request?, shutdownTimeout: Duration) -> StageAnswer {
        let message = "tonearm cancelled this exchange before it was answered: the server was stopping and its "
            + "shutdown timeout (\(shutdownTimeout)) passed, or the client closed the connection; "
            + "allow more with --shutdown-timeout SECONDS or ServerConfiguration.shutdownTimeout"
        return StageAnswer(
            content: .response(ServerCore.plainText(503, message)), source: JournalEntry.Source(kind: .cancelled, detail: message),
            journaled: journaled)
    }

    /// The miss answer: `miss` is the one journaled and reported first, `alsoMissed` where else the
    /// request was looked up.
    package static func miss(_ miss: StageMiss, alsoMissed: [StageMiss] = []) -> StageAnswer {
        StageAnswer(
            content: .miss(miss, alsoMissed: alsoMissed), source: JournalEntry.Source(kind: .miss, detail: miss.report.reason.description),
            journaled: miss.request)
    }
}

/// How an answer's body is written over time.
package enum AnswerPacing: Sendable {
    /// Evenly over a time, whatever the body's length once rendered and compressed (a mapping's
    /// `chunkedDribbleDelay`).
    case dribble(Dribble)
    /// In a recorded stream's parts, at their times (scaled as ``ServerConfiguration/streamPacing`` says).
    case recorded(BodyPacing)

    /// The parts of a body of `count` bytes.
    package func parts(forBodyCount count: Int) -> BodyPacing {
        switch self {
        case .dribble(let dribble): BodyPacing.evenly(byteCount: count, pieces: dribble.pieces, over: dribble.total)
        case .recorded(let pacing): pacing
        }
    }
}
