import Tonearm

/// The decisions of a WebSocket being recorded through the server (``WebSocketRelay`` executes them):
/// what each end's frames amount to, what is passed to the other end, what the conversation keeps, and
/// when an end that was passed a close and never answered it is cut. A value with no clock and no I/O:
/// times come in as offsets from the upstream's `101`, and the relay follows ``deadline``.
///
/// Pings are answered at each end, not relayed (the conversation keeps messages only). The first close
/// is recorded and passed on, and answered at its end; an end passed a close has
/// ``WebSocketReplay/closeGrace`` to answer it, then its connection is closed. When either connection
/// ends, the conversation is complete and finished once.
///
/// The recording is bounded as a streamed body's is: once the messages kept reach ``recordingLimit``
/// bytes of payload, the rest is still relayed but no longer kept, and the recording is finished marked
/// as cut there, so a socket open for hours cannot grow the server's memory without bound.
struct WebSocketRelayState {
    /// An end of the relay.
    enum Side: Equatable {
        case client, upstream

        var peer: Side { self == .client ? .upstream : .client }
    }

    /// What the relay does.
    enum Action: Equatable {
        /// Sends a whole message to the end.
        case send(to: Side, WebSocketConversation.Message.Kind, [UInt8])
        /// Answers the end's ping.
        case pong(to: Side, [UInt8])
        /// Sends the end a close frame (the relay sends an end one close at most).
        case sendClose(to: Side, code: UInt16?, reason: String)
        /// Closes the end's connection once what was written to it is written.
        case closeConnectionAfterWrites(Side)
        /// Closes the end's connection now.
        case closeConnection(Side)
        /// The conversation is over: record it, marked as cut for `cut`'s reason when it was.
        case finish(WebSocketConversation, cut: String?)
    }

    /// The most payload bytes the recorded conversation keeps (the server's body limit).
    let recordingLimit: Int

    private var messages: [WebSocketConversation.Message] = []
    private var close: WebSocketConversation.Close?
    private var finished = false
    /// The end whose connection ended with no close exchanged (the other was told it went away).
    private var goneAway: Side?
    /// When the client's and the upstream's time to answer a close passed to them ends.
    private var clientGraceEnds: Duration?
    private var upstreamGraceEnds: Duration?
    private var keptBytes = 0
    /// Why the recording stopped keeping messages, once it did.
    private var cut: String?

    init(recordingLimit: Int = .max) {
        self.recordingLimit = max(0, recordingLimit)
    }

    /// The next time ``advance(to:)`` has something to do: the earliest end of a close's grace.
    var deadline: Duration? {
        switch (clientGraceEnds, upstreamGraceEnds) {
        case (let client?, let upstream?): min(client, upstream)
        case (let client?, nil): client
        case (nil, let upstream?): upstream
        case (nil, nil): nil
        }
    }

    /// What `side`'s frames amounted to, at `now`.
    mutating func received(_ output: WebSocketFrameAssembler.Output, from side: Side, at now: Duration) -> [Action] {
        switch output {
        case .none, .pong:
            return []
        case .message(let kind, let payload):
            // After a close, an end sends no more data (RFC 6455 §5.5.1): anything that comes is dropped,
            // as is what comes once the other end went away (the conversation is finished).
            guard close == nil, goneAway == nil else { return [] }
            if cut == nil, payload.count <= recordingLimit - keptBytes {
                keptBytes += payload.count
                messages.append(WebSocketConversation.Message(side == .client ? .client : .server, kind, payload: payload, offset: now))
            } else if cut == nil {
                cut = "the conversation passed the \(recordingLimit)-byte limit (--max-body-size) after \(messages.count) messages"
            }
            return [.send(to: side.peer, kind, payload)]
        case .ping(let payload):
            return [.pong(to: side, payload)]
        case .close(let code, let reason):
            guard close == nil, goneAway == nil else {
                // The answer to the close passed to this end: its connection can go.
                setGrace(of: side, to: nil)
                return [.closeConnection(side)]
            }
            close = WebSocketConversation.Close(side == .client ? .client : .server, code: code, reason: reason, offset: now)
            setGrace(of: side.peer, to: now + WebSocketReplay.closeGrace)
            return [.sendClose(to: side.peer, code: code, reason: reason), .sendClose(to: side, code: code, reason: ""), .closeConnectionAfterWrites(side)]
        case .violation(let code, let reason):
            var actions: [Action] = [.sendClose(to: side, code: code, reason: reason), .closeConnectionAfterWrites(side)]
            if close == nil, goneAway == nil {
                let reason = "the other end broke the protocol"
                close = WebSocketConversation.Close(.server, code: 1001, reason: reason, offset: now)
                actions.append(.sendClose(to: side.peer, code: 1001, reason: reason))
                setGrace(of: side.peer, to: now + WebSocketReplay.closeGrace)
            }
            return actions
        }
    }

    /// `side`'s connection ended at `now`: the conversation is over; the other end is told (going away)
    /// if no close was exchanged.
    mutating func ended(_ side: Side, at now: Duration) -> [Action] {
        setGrace(of: side, to: nil)
        var actions: [Action] = []
        if close == nil, goneAway == nil {
            goneAway = side
            actions.append(.sendClose(to: side.peer, code: 1001, reason: side == .client ? "the client went away" : "the upstream went away"))
            setGrace(of: side.peer, to: now + WebSocketReplay.closeGrace)
        }
        guard !finished else { return actions }
        finished = true
        return actions + [.finish(WebSocketConversation(messages: messages, close: close), cut: cut)]
    }

    /// The server is stopping at `now`: both ends are told it is going away, and closed once told.
    mutating func stop(at now: Duration) -> [Action] {
        let reason = "tonearm is stopping"
        if close == nil, goneAway == nil { close = WebSocketConversation.Close(.server, code: 1001, reason: reason, offset: now) }
        return [Side.client, .upstream].flatMap { side -> [Action] in
            [.sendClose(to: side, code: 1001, reason: reason), .closeConnectionAfterWrites(side)]
        }
    }

    /// Time passed to `now`: an end whose close's grace has run out is cut.
    mutating func advance(to now: Duration) -> [Action] {
        var actions: [Action] = []
        for side in [Side.client, .upstream] {
            guard let ends = grace(of: side), ends <= now else { continue }
            setGrace(of: side, to: nil)
            actions.append(.closeConnection(side))
        }
        return actions
    }

    private func grace(of side: Side) -> Duration? {
        side == .client ? clientGraceEnds : upstreamGraceEnds
    }

    private mutating func setGrace(of side: Side, to ends: Duration?) {
        if side == .client { clientGraceEnds = ends } else { upstreamGraceEnds = ends }
    }
}
