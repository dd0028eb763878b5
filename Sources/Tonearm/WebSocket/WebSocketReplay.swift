/// The replay of one recorded WebSocket conversation (``WebSocketConversation``), decided as a value:
/// events go in (the socket opened, a client message, a client close, the clock reaching ``deadline``)
/// with the time since the upgrade, and what to send comes out as ``Action``s, which the connection only
/// executes. No clock of its own: tests drive it with any times.
///
/// - The server's messages are sent at their recorded offsets, counted from what they followed: the
///   upgrade, or the client message they answered (recorded at 1.0 s, a reply at 1.2 s goes 0.2 s after
///   the client's message arrives), scaled as ``StreamPacing`` says.
/// - In ``WebSocketMessageOrder/recorded`` order (the default) each client message must be the one recorded next, in
///   canonical form (``WebSocketMessageMatcher``); server messages recorded before it that are still
///   waiting go at once, so the client never sees them after what they preceded. In ``WebSocketMessageOrder/keyed`` order
///   a client message may come in any order, and is answered by the server messages recorded after the
///   same canonical message (its first recording first, the last one again once all have played).
/// - A client message that does not match is a miss: ``Action/missed(_:)`` says which recorded messages
///   were nearest and how they differ, and the socket is closed with 1008 (policy violation).
/// - The server's recorded close is sent at its time; a close from the client is answered with its code,
///   and the connection ends.
package struct WebSocketReplay: Sendable {
    /// What the connection does.
    package enum Action: Sendable, Equatable {
        /// Send this message.
        case send(WebSocketConversation.Message.Kind, [UInt8])
        /// Send a close frame with this code (none when `nil`) and reason; nothing is sent after it.
        case close(code: UInt16?, reason: String)
        /// A client message matched nothing: report it (the close that follows says so briefly).
        case missed(WebSocketMessageMiss)
        /// Close the connection: the closing handshake is over (or the client did not finish it in time).
        case closeConnection
    }

    /// How long a client has to answer the server's close before the connection is closed anyway.
    package static let closeGrace: Duration = .seconds(5)

    private let conversation: WebSocketConversation
    private let order: WebSocketMessageOrder
    private let factor: Double?
    private let matcher: WebSocketMessageMatcher
    /// The client messages' canonical forms, by their index in the conversation.
    private let clientForms: [Int: WebSocketMessageMatcher.CanonicalForm]
    /// Keyed order: the indices of the client messages with each canonical form, in recorded order.
    private let occurrences: [WebSocketMessageMatcher.CanonicalForm: [Int]]
    private var playedOccurrences: [WebSocketMessageMatcher.CanonicalForm: Int] = [:]

    /// Events are the messages' indices, and `messages.count` for a close the server sent.
    private var eventCount: Int { conversation.messages.count + (conversation.close?.sender == .server ? 1 : 0) }
    /// Recorded order: the next event not yet scheduled (a client message, once the server's before it are).
    private var cursor = 0
    /// Server events due, in the order they go (by time, then as scheduled).
    private var pending: [(due: Duration, event: Int)] = []
    /// How many messages the client has sent.
    private var clientMessages = 0

    private enum Phase: Equatable {
        case open
        /// The server sent its close at `since`; the client's answering close, or the grace, ends it.
        case closing(since: Duration)
        case closed
    }

    private var phase = Phase.open

    /// The replay of `conversation`, matching client messages in `order` with `matcher`, pacing the
    /// server's messages as `pacing` says.
    package init(
        conversation: WebSocketConversation, order: WebSocketMessageOrder = .recorded, pacing: StreamPacing = .recorded,
        matcher: WebSocketMessageMatcher = WebSocketMessageMatcher()
    ) {
        self.conversation = conversation
        self.order = order
        factor = pacing.factor
        self.matcher = matcher
        var forms: [Int: WebSocketMessageMatcher.CanonicalForm] = [:]
        var occurrences: [WebSocketMessageMatcher.CanonicalForm: [Int]] = [:]
        for (index, message) in conversation.messages.enumerated() where message.sender == .client {
            let form = matcher.canonicalForm(message.kind, message.payload)
            forms[index] = form
            occurrences[form, default: []].append(index)
        }
        clientForms = forms
        self.occurrences = occurrences
    }

    /// When ``advance(to:)`` is next due, as time since the upgrade; `nil` while nothing waits for time.
    package var deadline: Duration? {
        switch phase {
        case .open: pending.first?.due
        case .closing(let since): since + Self.closeGrace
        case .closed: nil
        }
    }

    /// Whether the conversation is over: nothing more is sent or read.
    package var isClosed: Bool { phase == .closed }

    // MARK: - Events

    /// The upgrade was answered at `now`: the server's messages recorded before the client's first are
    /// scheduled from it (and those due at once returned).
    package mutating func opened(at now: Duration) -> [Action] {
        schedule(after: -1, anchoredAt: (recorded: .zero, actual: now))
        return advance(to: now)
    }

    /// What is due by `now`: the server's messages and close whose time has come, or the end of a
    /// closing handshake the client did not finish.
    package mutating func advance(to now: Duration) -> [Action] {
        switch phase {
        case .closed:
            return []
        case .closing(let since):
            guard now >= since + Self.closeGrace else { return [] }
            phase = .closed
            return [.closeConnection]
        case .open:
            var actions: [Action] = []
            while let first = pending.first, first.due <= now {
                pending.removeFirst()
                actions.append(send(first.event, at: now))
                if phase != .open { break }
            }
            return actions
        }
    }

    /// The client sent a whole message at `now`.
    package mutating func received(_ kind: WebSocketConversation.Message.Kind, _ payload: [UInt8], at now: Duration) -> [Action] {
        guard phase == .open else { return [] }
        clientMessages += 1
        let form = matcher.canonicalForm(kind, payload)
        if order == .recorded {
            guard cursor < conversation.messages.count, let expected = clientForms[cursor] else {
                return miss(kind, payload, form: form, reason: "the recording has no client message after the \(clientMessages - 1) already matched", at: now)
            }
            guard expected == form else {
                return miss(
                    kind, payload, form: form,
                    reason: "client message \(clientMessages) is not the one recorded next (message \(cursor) of the conversation)",
                    nearest: [cursor], at: now)
            }
            // What the server said before this message in the recording goes first.
            var actions = pending.map { send($0.event, at: now) }
            pending.removeAll()
            let matched = cursor
            cursor += 1
            schedule(after: matched, anchoredAt: (conversation.messages[matched].offset, now))
            actions += advance(to: now)
            return actions
        }
        guard let indices = occurrences[form] else {
            return miss(
                kind, payload, form: form, reason: "client message \(clientMessages) was never recorded on this socket",
                nearest: nearestRecorded(to: form), at: now)
        }
        let played = playedOccurrences[form, default: 0]
        playedOccurrences[form] = played + 1
        let matched = indices[min(played, indices.count - 1)]
        schedule(after: matched, anchoredAt: (conversation.messages[matched].offset, now))
        return advance(to: now)
    }

    /// The client sent a close frame (with `code`, or none) at `now`: answered with the same code, unless
    /// this answers the server's own close; either way the connection ends.
    package mutating func clientClosed(code: UInt16?, at now: Duration) -> [Action] {
        switch phase {
        case .closed:
            return []
        case .closing:
            phase = .closed
            return [.closeConnection]
        case .open:
            phase = .closed
            let echoed = code.flatMap { WebSocketConversation.isSendable(closeCode: $0) ? $0 : 1000 }
            return [.close(code: echoed, reason: ""), .closeConnection]
        }
    }

    // MARK: - Scheduling

    /// Schedules the server's events recorded after the event `index` (`-1`: from the start) up to the
    /// next client message, each due its recorded distance from `anchor`.
    private mutating func schedule(after index: Int, anchoredAt anchor: (recorded: Duration, actual: Duration)) {
        var event = index + 1
        while event < eventCount, !isClientMessage(event) {
            let recorded = offset(of: event) - anchor.recorded
            let due = anchor.actual + (factor.map { max(.zero, recorded) * $0 } ?? .zero)
            // After every event already due no later (a later batch never overtakes an earlier one's equal times).
            let position = pending.firstIndex { $0.due > due } ?? pending.count
            pending.insert((due, event), at: position)
            event += 1
        }
        if order == .recorded { cursor = event }
    }

    private func isClientMessage(_ event: Int) -> Bool {
        event < conversation.messages.count && conversation.messages[event].sender == .client
    }

    private func offset(of event: Int) -> Duration {
        event < conversation.messages.count ? conversation.messages[event].offset : conversation.close?.offset ?? .zero
    }

    /// The action for the server's event: a message, or its close (which starts the closing handshake).
    private mutating func send(_ event: Int, at now: Duration) -> Action {
        guard event < conversation.messages.count else {
            pending.removeAll()
            phase = .closing(since: now)
            return .close(code: conversation.close?.code, reason: conversation.close?.reason ?? "")
        }
        let message = conversation.messages[event]
        return .send(message.kind, message.payload)
    }

    // MARK: - Misses

    private mutating func miss(
        _ kind: WebSocketConversation.Message.Kind, _ payload: [UInt8], form: WebSocketMessageMatcher.CanonicalForm, reason: String,
        nearest indices: [Int] = [], at now: Duration
    ) -> [Action] {
        let nearest = indices.compactMap { index -> WebSocketMessageMiss.Near? in
            guard let recorded = clientForms[index] else { return nil }
            return WebSocketMessageMiss.Near(
                index: index, message: conversation.messages[index], differences: matcher.differences(recorded: recorded, received: form))
        }
        let miss = WebSocketMessageMiss(
            number: clientMessages, received: WebSocketConversation.Message(.client, kind, payload: payload, offset: now), reason: reason,
            nearest: nearest, candidatesCompared: order == .keyed ? occurrences.count : indices.count)
        pending.removeAll()
        phase = .closing(since: now)
        return [.missed(miss), .close(code: 1008, reason: "tonearm: client message \(clientMessages) is not in the recording")]
    }

    /// Keyed order: up to three recorded client messages (one per canonical form) nearest `form`, fewest
    /// differences first, of at most ``WebSocketMessageMiss/maximumCompared``.
    private func nearestRecorded(to form: WebSocketMessageMatcher.CanonicalForm) -> [Int] {
        let candidates = occurrences.values.compactMap(\.first).sorted().prefix(WebSocketMessageMiss.maximumCompared)
        let ranked = candidates.map { index in
            (index, clientForms[index].map { matcher.differences(recorded: $0, received: form).reduce(0) { $0 + $1.weight } } ?? .max)
        }
        return ranked.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(3).map(\.0)
    }
}
