/// One recorded exchange: the request that was sent and what came back (a response or a transport
/// error), with optional metadata for replay.
public struct Track: Sendable, Hashable {
    /// What a replayed track produces.
    public enum Outcome: Sendable, Hashable {
        /// An HTTP response.
        case response(Response)
        /// A simulated network failure; no response is delivered.
        case transportError(TransportError)
    }

    /// The recorded request; its canonical form is the track's key.
    public var request: Request
    /// What replaying the track produces.
    public var outcome: Outcome
    /// An optional human-readable name, shown in miss reports and listings.
    public var name: String?
    /// How long to wait before delivering the outcome, to simulate latency.
    public var delay: Duration?
    /// The track's step in a stateful scenario: it answers only while the scenario is in the step's
    /// required state, then moves it on. A track with a scenario is a stub: it answers any number of
    /// times, whatever the engine's strategy (see ``ScenarioStep``).
    public var scenario: ScenarioStep?
    /// How the response's body arrived over time, when it was a stream (Server-Sent Events, a chunked
    /// download): replay delivers its parts at their offsets from the head, after ``delay``, as
    /// ``StreamPacing`` says. `nil` for a body delivered whole.
    public var pacing: BodyPacing?
    /// The conversation after the upgrade, when the request was a WebSocket handshake the response
    /// (`101 Switching Protocols`) accepted: replay answers the handshake and plays it
    /// (`WebSocketReplay`). `nil` for every other exchange.
    public var webSocket: WebSocketConversation? {
        get { webSocketStorage?.conversation }
        set { webSocketStorage = newValue.map(ConversationStorage.init) }
    }
    /// One reference rather than the conversation's fields: every track is copied on the replay path,
    /// and nearly none has a conversation (inline, its copies cost a replayed request about 200
    /// instructions; docs/benchmarks.md, "CI: the request path's instruction and allocation limits").
    private var webSocketStorage: ConversationStorage?

    /// Whether the track has a conversation, without copying it out (a check on every replay).
    package var hasWebSocketConversation: Bool { webSocketStorage != nil }

    /// Creates a track that answers `request` with `response`.
    public init(
        request: Request, response: Response, name: String? = nil, delay: Duration? = nil,
        scenario: ScenarioStep? = nil, pacing: BodyPacing? = nil, webSocket: WebSocketConversation? = nil
    ) {
        self.init(
            request: request, outcome: .response(response), name: name, delay: delay, scenario: scenario, pacing: pacing,
            webSocket: webSocket)
    }

    /// Creates a track with any outcome, including a simulated transport error.
    public init(
        request: Request, outcome: Outcome, name: String? = nil, delay: Duration? = nil,
        scenario: ScenarioStep? = nil, pacing: BodyPacing? = nil, webSocket: WebSocketConversation? = nil
    ) {
        self.request = request
        self.outcome = outcome
        self.name = name
        self.delay = delay
        self.scenario = scenario
        self.pacing = pacing
        self.webSocket = webSocket
    }

    /// The response, or `nil` when the track simulates a transport error.
    public var response: Response? {
        if case .response(let response) = outcome { return response }
        return nil
    }
}

extension Track {
    /// Holds a track's conversation; compared and hashed by it, so tracks compare as if it were inline.
    private final class ConversationStorage: Sendable, Hashable {
        let conversation: WebSocketConversation

        init(_ conversation: WebSocketConversation) {
            self.conversation = conversation
        }

        static func == (lhs: ConversationStorage, rhs: ConversationStorage) -> Bool {
            lhs === rhs || lhs.conversation == rhs.conversation
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(conversation)
        }
    }
}
