/// Per key, tracks answer in recording order, first in first out (responses and simulated errors
/// alike). Both the FIFO queue and unique-play are this strategy; they differ in what an exhausted key
/// does.
///
/// Each key has one atomic counter, so taking the next track is a single atomic increment: concurrent
/// requests never get the same track, and no lock is taken.
public struct QueueStrategy: MatchingStrategy {
    /// What a key does once every track recorded for it has played.
    public enum ExhaustionPolicy: Sendable, Hashable {
        /// Keep answering with the last track (a FIFO queue whose tail sticks).
        case repeatLast
        /// Miss, reporting the key as exhausted (unique-play).
        case miss
    }

    private let index: TrackIndex
    private let whenExhausted: ExhaustionPolicy
    private let played: AtomicCounters

    /// A queue strategy over `index`.
    public init(index: TrackIndex, whenExhausted: ExhaustionPolicy) {
        self.index = index
        self.whenExhausted = whenExhausted
        played = AtomicCounters(count: index.distinctKeyCount)
    }

    /// The next unplayed track for the request's key.
    public func match(_ request: IncomingRequest) -> StrategyOutcome {
        guard let group = index.keyGroup(for: request.key) else { return .miss(.notRecorded) }
        let trackCount = index.keys.count(of: group)
        var turn = played.takeNext(Int(group))
        if turn >= trackCount {
            guard whenExhausted == .repeatLast else { return .miss(.exhausted(trackCount: trackCount)) }
            turn = trackCount - 1
        }
        let position = index.keys.member(turn, of: group)
        return .hit(Hit(track: index.tracks[position], source: .track(position: position)))
    }

    /// Refills every queue.
    public func reset() {
        played.resetAll()
    }
}
