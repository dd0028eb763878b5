import Tonearm
import TonearmCassettes

/// What a connection does once its WebSocket upgrade is answered: plays a recorded conversation, or
/// relays to the upstream while recording one. Made by the cassette stage; the finisher
/// gives it the journal (``reporting(to:)``); the connection runs it
/// (``HTTPPipeline/upgradeToWebSocket(_:plan:)``). Compared by identity: each upgrade has its own.
package final class WebSocketPlan: Sendable, Equatable {
    /// Who speaks for the server on the socket.
    enum Play: Sendable {
        /// The recorded conversation, decided by ``WebSocketReplay``.
        case replay(WebSocketReplay)
        /// The upstream's socket, open already, relayed to (``WebSocketRelay``); `record` is given the
        /// conversation when it ends, and why it was cut short when it was (the recording limit).
        case relay(UpstreamWebSocket, record: @Sendable (WebSocketConversation, _ cut: String?) -> Void)
    }

    let play: Play
    /// The largest message taken from either end (the server's body limit, `--max-body-size`).
    let maximumMessageSize: Int
    /// A replayed message's miss as a request's miss report (the socket's handshake carrying the
    /// message); `nil` when there can be no misses.
    let missReport: (@Sendable (WebSocketMessageMiss) -> MissReport)?
    /// Called with each client message the replay had no answer for, with its report.
    let onMiss: @Sendable (WebSocketMessageMiss, MissReport) -> Void
    /// Given the conversation as it went once the socket has ended (``ended(_:)``): the handshake's
    /// journal entry is completed with it.
    let outcome: StreamOutcome
    /// What recordings hide: a replay compares a client's text message as it was recorded, redacted.
    let redaction: Redaction

    init(
        play: Play, maximumMessageSize: Int, missReport: (@Sendable (WebSocketMessageMiss) -> MissReport)?, redaction: Redaction,
        onMiss: @escaping @Sendable (WebSocketMessageMiss, MissReport) -> Void = { _, _ in }, outcome: StreamOutcome = StreamOutcome()
    ) {
        self.play = play
        self.maximumMessageSize = maximumMessageSize
        self.missReport = missReport
        self.redaction = redaction
        self.onMiss = onMiss
        self.outcome = outcome
    }

    /// This plan, its misses given to `onMiss` with their reports.
    func reporting(to onMiss: @escaping @Sendable (WebSocketMessageMiss, MissReport) -> Void) -> WebSocketPlan {
        WebSocketPlan(
            play: play, maximumMessageSize: maximumMessageSize, missReport: missReport, redaction: redaction, onMiss: onMiss, outcome: outcome)
    }

    /// The socket ended, its conversation having gone as `conversation` says, `leftOut` messages not
    /// kept in it (the first call counts).
    func ended(_ conversation: WebSocketConversation, leftOut: Int = 0) {
        outcome.end(.webSocket(conversation, leftOut: leftOut))
    }

    /// Reports `miss`, when this plan can.
    func report(_ miss: WebSocketMessageMiss) {
        guard let missReport else { return }
        onMiss(miss, missReport(miss))
    }

    package static func == (lhs: WebSocketPlan, rhs: WebSocketPlan) -> Bool { lhs === rhs }
}
