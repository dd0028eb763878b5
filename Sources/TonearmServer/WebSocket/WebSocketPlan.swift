import Tonearm

/// What a connection does once its WebSocket upgrade is answered: plays a recorded conversation, or
/// relays to the upstream while recording one. Made by the cassette stage; the finisher
/// gives it the journal (``reporting(to:)``); the connection runs it
/// (``HTTPPipeline/upgradeToWebSocket(_:plan:)``). Compared by identity: each upgrade has its own.
final class WebSocketPlan: Sendable, Equatable {
    /// Who speaks for the server on the socket.
    enum Play: Sendable {
        /// The recorded conversation, decided by ``WebSocketReplay``.
        case replay(WebSocketReplay)
        /// The upstream's socket, open already, relayed to (``WebSocketRelay``); `record` is given the
        /// conversation when it ends.
        case relay(UpstreamWebSocket, record: @Sendable (WebSocketConversation) -> Void)
    }

    let play: Play
    /// The largest message taken from either end (the server's body limit, `--max-body-size`).
    let maximumMessageSize: Int
    /// A replayed message's miss as a request's miss report (the socket's handshake carrying the
    /// message); `nil` when there can be no misses.
    let missReport: (@Sendable (WebSocketMessageMiss) -> MissReport)?
    /// Called with each client message the replay had no answer for, with its report.
    let onMiss: @Sendable (WebSocketMessageMiss, MissReport) -> Void

    init(
        play: Play, maximumMessageSize: Int, missReport: (@Sendable (WebSocketMessageMiss) -> MissReport)?,
        onMiss: @escaping @Sendable (WebSocketMessageMiss, MissReport) -> Void = { _, _ in }
    ) {
        self.play = play
        self.maximumMessageSize = maximumMessageSize
        self.missReport = missReport
        self.onMiss = onMiss
    }

    /// This plan, its misses given to `onMiss` with their reports.
    func reporting(to onMiss: @escaping @Sendable (WebSocketMessageMiss, MissReport) -> Void) -> WebSocketPlan {
        WebSocketPlan(play: play, maximumMessageSize: maximumMessageSize, missReport: missReport, onMiss: onMiss)
    }

    /// Reports `miss`, when this plan can.
    func report(_ miss: WebSocketMessageMiss) {
        guard let missReport else { return }
        onMiss(miss, missReport(miss))
    }

    static func == (lhs: WebSocketPlan, rhs: WebSocketPlan) -> Bool { lhs === rhs }
}
