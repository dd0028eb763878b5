/// Per key, tracks answer in the order they were added, first in first out (responses and simulated
/// errors alike). Both the FIFO queue and unique-play are this strategy; they differ in what an
/// exhausted key does.
///
/// A track added while the engine runs joins the back of its key's queue: a key that was exhausted
/// answers again with it. Each key has one atomic cursor, the position of the last track it played:
/// taking the next track is a compare-and-exchange from that position to the next live one, so
/// concurrent requests never get the same track and no lock is taken. Removed tracks, and tracks that
/// count as played by the request that recorded them, are stepped over, and so are tracks with a
/// scenario (the engine's scenario stage answers them).
struct QueueStrategy: KeyedMatchingStrategy {
    private let index: TrackIndex
    private let whenExhausted: Strategy.ExhaustionPolicy
    /// Per key group: the position of the last track played, plus one (zero before any).
    private let lastPlayed = AtomicSlots()

    /// A queue strategy over `index`.
    init(index: TrackIndex, whenExhausted: Strategy.ExhaustionPolicy) {
        self.index = index
        self.whenExhausted = whenExhausted
    }

    /// The next unplayed track for `key`.
    func match(key: RequestKey, request: Request) -> StrategyOutcome {
        guard let group = index.keyGroup(for: key) else { return .miss(.notRecorded) }
        let keys = index.keys
        while true {
            let cursor = lastPlayed.load(group)
            var candidate = cursor == 0 ? keys.first(of: group) : keys.next(after: cursor - 1)
            while let position = candidate, index.isRemovedOrScenario(position) { candidate = keys.next(after: position) }
            guard let position = candidate else { return exhausted(group: group, lastPlayed: cursor - 1, request: request) }
            guard lastPlayed.compareExchange(group, expected: cursor, desired: position + 1) else { continue }
            // Played by the request that recorded it: it is behind the cursor now; look further.
            if index.isRemovedOrPrePlayed(position) { continue }
            return .hit(Hit(recordedAt: position, in: index, answering: request))
        }
    }

    private func exhausted(group: Int, lastPlayed: Int, request: Request) -> StrategyOutcome {
        let live = index.keys.members(of: group).filter { !index.isRemovedOrScenario($0) }
        guard let last = live.last else { return .miss(.notRecorded) }
        guard whenExhausted == .repeatLast else { return .miss(.exhausted(trackCount: live.count)) }
        // The last track played, unless it was removed since: then the last live one.
        let position = lastPlayed >= 0 && !index.isRemoved(lastPlayed) ? lastPlayed : last
        return .hit(Hit(recordedAt: position, in: index, answering: request))
    }

    /// Refills every queue.
    func reset() {
        lastPlayed.zeroAll()
    }
}

extension QueueStrategy: TrackAvailability {
    /// A track its key's queue has not reached yet; once the queue is through, under FIFO the last one
    /// played keeps answering, under unique-play none does.
    package func isPlayable(_ position: Int) -> Bool {
        guard position < index.positionCount, !index.isRemovedOrPrePlayed(position) else { return false }
        let group = index.keyGroup(at: position)
        let cursor = lastPlayed.load(group)
        if cursor <= position { return true }
        guard whenExhausted == .repeatLast, cursor - 1 == position else { return false }
        // The last track played answers again only when nothing live follows it in its key.
        var next = index.keys.next(after: position)
        while let candidate = next, index.isRemovedOrScenario(candidate) { next = index.keys.next(after: candidate) }
        return next == nil
    }
}
