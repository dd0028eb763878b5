import NIOCore

/// When the inspector's live feed sends what, decided as a value: the server's state when it changed,
/// the exchanges journaled since the last ones sent, a keep-alive comment when nothing was sent for a
/// while, else a wait until the next look. ``InspectorFeedSource`` executes it over the journal; tests
/// drive it with instants of their own.
///
/// The feed looks at the journal every ``Timing/lookInterval`` rather than being told of each exchange:
/// the request path then does nothing for an open page (one look costs a lock and two integers), and a
/// burst of exchanges goes out as one event. A look that finds more than ``Timing/batch`` new exchanges
/// sends the newest of them and says how many it skipped: the feed never falls behind the journal, and
/// what it writes a second is bounded however fast requests come.
struct InspectorFeed: Equatable {
    /// How often, and how much.
    struct Timing: Equatable {
        /// How long between looks at the journal: short enough to read as live.
        var lookInterval = TimeAmount.milliseconds(250)
        /// How long the feed may send nothing before a keep-alive comment (proxies and browsers close
        /// connections silent for long).
        var keepAliveInterval = TimeAmount.seconds(15)
        /// The most exchanges one event carries.
        var batch = 250
    }

    /// What the feed does next.
    enum Step: Equatable {
        /// Send the server's state (its fingerprint changed, or none was sent yet).
        case sendState
        /// Send the newest exchanges numbered after `after`, at most `limit`; then report what was sent
        /// with ``sent(through:)``.
        case sendExchanges(after: Int, limit: Int)
        /// Send the exchanges completed after the first `after` completions (streams that ended since
        /// their heads were sent: the page replaces its copies).
        case sendCompleted(after: Int)
        /// Send a comment that keeps the connection open.
        case keepAlive
        /// Nothing now: look again at `deadline`.
        case wait(until: NIODeadline)
    }

    let timing: Timing
    /// The number of the newest exchange sent (or not wanted: older than the page's own list).
    private(set) var lastSent: Int
    /// The state fingerprint last sent, `nil` before the first.
    private var sentFingerprint: Int?
    /// When a keep-alive is due, counted from the last send.
    private var keepAliveDue: NIODeadline
    /// The earliest the next state event, and the next exchanges event, may go: one of each per look,
    /// however fast the journal grows (otherwise the writer, asking again as soon as a part is written,
    /// would find new exchanges every time under load and send without pause).
    private var stateAllowed: NIODeadline
    private var exchangesAllowed: NIODeadline
    /// How many of the journal's completions were sent.
    private(set) var completionsSent: Int

    /// A feed opened at `now` that sends exchanges numbered after `after`, and the completions after
    /// the first `completions`.
    init(after: Int, completions: Int = 0, now: NIODeadline, timing: Timing = Timing()) {
        self.timing = timing
        lastSent = after
        completionsSent = completions
        keepAliveDue = now + timing.keepAliveInterval
        stateAllowed = now
        exchangesAllowed = now
    }

    /// What to do at `now`, the journal's newest exchange being numbered `newest` (-1 when none), its
    /// completions numbering `completions`, and the server's state having `fingerprint`. Completions go
    /// out after the exchanges they complete, on the same pace.
    mutating func next(now: NIODeadline, newest: Int, completions: Int = 0, fingerprint: Int) -> Step {
        let stateChanged = sentFingerprint != fingerprint, exchangesWaiting = newest > lastSent
        let completionsWaiting = completions > completionsSent
        if stateChanged, now >= stateAllowed {
            sentFingerprint = fingerprint
            stateAllowed = now + timing.lookInterval
            keepAliveDue = now + timing.keepAliveInterval
            return .sendState
        }
        if exchangesWaiting, now >= exchangesAllowed {
            exchangesAllowed = now + timing.lookInterval
            keepAliveDue = now + timing.keepAliveInterval
            let after = lastSent
            // Until told otherwise, everything up to the newest counts as sent: a send that finds the
            // journal changed meanwhile is reported by `sent(through:)`.
            lastSent = newest
            return .sendExchanges(after: after, limit: timing.batch)
        }
        if completionsWaiting, now >= exchangesAllowed {
            exchangesAllowed = now + timing.lookInterval
            keepAliveDue = now + timing.keepAliveInterval
            let after = completionsSent
            completionsSent = completions
            return .sendCompleted(after: after)
        }
        if now >= keepAliveDue {
            keepAliveDue = now + timing.keepAliveInterval
            return .keepAlive
        }
        var wake = min(now + timing.lookInterval, keepAliveDue)
        if stateChanged { wake = min(wake, stateAllowed) }
        if exchangesWaiting || completionsWaiting { wake = min(wake, exchangesAllowed) }
        return .wait(until: wake)
    }

    /// The exchanges sent went up to the one numbered `sequence` (a journal that grew between the look
    /// and the read sends more than the look saw).
    mutating func sent(through sequence: Int) {
        lastSent = max(lastSent, sequence)
    }
}
