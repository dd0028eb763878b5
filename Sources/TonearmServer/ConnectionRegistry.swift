import NIOCore
import NIOHTTP1
import Synchronization
import Tonearm

/// Sent through every connection's pipeline when the server stops accepting.
struct ServerStopping: Sendable {}

/// Sent to a connection chosen to make room for a new one when the server is at its connection limit.
struct ShedConnection: Sendable {}

/// The open connections, so stopping can close the idle ones and let busy ones finish their exchange,
/// and so a new connection past ``ServerConfiguration/Limits/maximumConnections`` can take an idle one's place.
///
/// Choosing whom to shed costs amortised O(1) per accept, not a scan of every connection under the
/// lock: 3,000 slowloris clients arriving at a full server would otherwise cost millions of entry
/// visits, serialised with every other accept, while a fresh client waits behind them in the backlog.
/// Connections entering the idle or slow-head phase queue themselves (``noteSheddable(_:word:)``), in
/// the order they entered it; a queued item whose connection has since moved on is recognised by its
/// word and dropped when it reaches the front, or when the queues are compacted. The queues are only
/// kept from half the cap on, so a server far from full takes no lock on its request path.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        var activity: ConnectionActivity
        /// Asked to close to make room; no longer counted against the limit.
        var shed = false
    }

    /// A connection that entered a sheddable phase, and the word saying so.
    private struct Candidate {
        var activity: ConnectionActivity
        var word: UInt64
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Entries not shed: what counts against the limit.
        var counted = 0
        var stopping = false
        /// Connections that went idle, then those that began a head, oldest first (while tracking).
        var idle = CircularBuffer<Candidate>()
        var awaitingHead = CircularBuffer<Candidate>()
    }

    private let state = Mutex(State())
    /// Whether the candidate queues are kept; read without the lock on every phase change.
    private let tracking = Atomic(false)
    private let maximumConnections: Int

    init(maximumConnections: Int) {
        self.maximumConnections = max(1, maximumConnections)
    }

    /// From this many connections on, the candidate queues are kept; below `trackingOff` they are
    /// dropped. The gap between them makes each rebuild (one pass over the entries) pay for itself.
    private var trackingOn: Int { maximumConnections / 2 }
    private var trackingOff: Int { maximumConnections / 4 }

    /// Adds `channel`, shedding the longest-idle connection (else the longest-waiting slow head) when
    /// the server is full. A channel not added (the server is stopping, or full of connections being
    /// answered) is closed by its initializer (``admission(ofNew:)``).
    ///
    /// Called by ``ConnectionAdmission`` on the listener's event loop, in the order connections were
    /// accepted: counting and choosing whom to shed must not depend on which child event loop gets to
    /// a connection first (a busy loop would otherwise let a later connection in ahead of an earlier one).
    func admit(_ channel: any Channel) {
        let activity = ConnectionActivity(key: ObjectIdentifier(channel))
        let (added, victim) = state.withLock { state -> (Bool, (any Channel)?) in
            guard !state.stopping else { return (false, nil) }
            var victim: (any Channel)?
            if state.counted >= maximumConnections {
                guard let key = Self.nextSheddable(&state) else { return (false, nil) }
                state.entries[key]?.shed = true
                state.counted -= 1
                victim = state.entries[key]?.channel
            }
            state.entries[activity.key] = Entry(channel: channel, activity: activity)
            state.counted += 1
            if state.counted >= trackingOn && !tracking.load(ordering: .relaxed) {
                // Flag first, then read every word (see ConnectionActivity.enter).
                tracking.store(true, ordering: .sequentiallyConsistent)
                Self.rebuildQueues(&state)
            } else if tracking.load(ordering: .relaxed) {
                Self.enqueue(Candidate(activity: activity, word: activity.word), in: &state)
            }
            return (true, victim)
        }
        victim?.pipeline.fireUserInboundEventTriggered(ShedConnection())
        if added {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { state in
                    guard let removed = state.entries.removeValue(forKey: activity.key) else { return }
                    if !removed.shed { state.counted -= 1 }
                    if state.counted < trackingOff && tracking.load(ordering: .relaxed) {
                        tracking.store(false, ordering: .sequentiallyConsistent)
                        state.idle.removeAll()
                        state.awaitingHead.removeAll()
                    }
                }
            }
        }
    }

    /// What became of a connection between its accept and its initializer.
    enum Admission {
        /// Counted against the limit: set up its pipeline with this activity.
        case admitted(ConnectionActivity)
        /// Admitted, then chosen to make room for a newer connection before its pipeline existed, so it
        /// missed the ``ShedConnection`` event: set up its pipeline and tell it, so that its client is
        /// answered `503` like any other shed connection rather than closed without a word.
        case shed(ConnectionActivity)
        /// Not admitted (the server is stopping, or full of busy connections): close it.
        case refused
    }

    /// What became of `channel`, for its initializer.
    func admission(ofNew channel: any Channel) -> Admission {
        state.withLock { state in
            guard let entry = state.entries[ObjectIdentifier(channel)] else { return .refused }
            return entry.shed ? .shed(entry.activity) : .admitted(entry.activity)
        }
    }

    /// Called by a connection that entered the idle or slow-head phase, `word` being what
    /// ``ConnectionActivity/enter(_:since:)`` returned.
    func noteSheddable(_ activity: ConnectionActivity, word: UInt64) {
        guard tracking.load(ordering: .sequentiallyConsistent) else { return }
        state.withLock { state in
            guard tracking.load(ordering: .relaxed) else { return }
            Self.enqueue(Candidate(activity: activity, word: word), in: &state)
        }
    }

    private static func enqueue(_ candidate: Candidate, in state: inout State) {
        switch ConnectionActivity.unpack(candidate.word).phase {
        case .idle: state.idle.append(candidate)
        case .awaitingHead: state.awaitingHead.append(candidate)
        case .busy: return
        }
        // Items of connections that moved on pile up on a busy keep-alive server: drop them once they
        // outnumber the connections, which takes one pass per as many phase changes.
        if state.idle.count + state.awaitingHead.count > 2 * state.entries.count + 64 {
            state.idle = CircularBuffer(state.idle.filter { isCurrent($0, in: state) })
            state.awaitingHead = CircularBuffer(state.awaitingHead.filter { isCurrent($0, in: state) })
        }
    }

    /// Whether `candidate`'s connection is open, not shed, and still in the phase it queued for.
    private static func isCurrent(_ candidate: Candidate, in state: State) -> Bool {
        guard let entry = state.entries[candidate.activity.key], !entry.shed else { return false }
        return candidate.activity.word == candidate.word
    }

    /// Every open connection in a sheddable phase, queued in the order it entered it.
    private static func rebuildQueues(_ state: inout State) {
        var found: [Candidate] = []
        for entry in state.entries.values where !entry.shed {
            found.append(Candidate(activity: entry.activity, word: entry.activity.word))
        }
        state.idle.removeAll()
        state.awaitingHead.removeAll()
        for candidate in found.sorted(by: { ($0.word & ~(3 << 62)) < ($1.word & ~(3 << 62)) }) {
            enqueue(candidate, in: &state)
        }
    }

    /// The connection to shed: the idle one there longest, else the slow head there longest; never a
    /// busy one. Stale items met on the way are dropped.
    private static func nextSheddable(_ state: inout State) -> ObjectIdentifier? {
        while let candidate = state.idle.popFirst() {
            if isCurrent(candidate, in: state) { return candidate.activity.key }
        }
        while let candidate = state.awaitingHead.popFirst() {
            if isCurrent(candidate, in: state) { return candidate.activity.key }
        }
        return nil
    }

    /// Tells every open connection the server is stopping, and returns them; no connection is
    /// registered from now on.
    func stop() -> [any Channel] {
        let channels = state.withLock { state in
            state.stopping = true
            return state.entries.values.map(\.channel)
        }
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(ServerStopping()) }
        return channels
    }
}
