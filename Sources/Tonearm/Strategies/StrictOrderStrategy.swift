/// Requests must arrive in exactly the order the tracks were added: the next request must have the key
/// of the next track, or it misses naming the track that was expected. Tracks added while the engine
/// runs join the end of the order.
///
/// One atomic cursor: a request claims its position with a compare-and-exchange, so two concurrent
/// requests can never both take the same step. Removed tracks, tracks that count as played by the
/// request that recorded them, and tracks with a scenario (the engine's scenario stage answers them)
/// are stepped over.
struct StrictOrderStrategy: KeyedMatchingStrategy {
    private let index: TrackIndex
    private let cursor = AtomicCounters(count: 1)

    /// A strict-order strategy over `index`.
    init(index: TrackIndex) {
        self.index = index
    }

    /// The next track, if a request with `key` is the one expected next.
    func match(key: RequestKey, request: Request) -> StrategyOutcome {
        let group = index.keyGroup(for: key)
        while true {
            let next = cursor.value(0)
            guard next < index.positionCount else {
                return .miss(.sequenceFinished(trackCount: index.trackCount))
            }
            if index.isRemovedOrPrePlayed(next) {
                _ = cursor.advance(0, from: next, to: next + 1)
                continue
            }
            guard let group, index.keyGroup(at: next) == group else {
                return .miss(.outOfOrder(expectedPosition: next))
            }
            if cursor.advance(0, from: next, to: next + 1) {
                return .hit(Hit(recordedAt: next, in: index, answering: request))
            }
        }
    }

    /// Rewinds to the first track.
    func reset() {
        cursor.resetAll()
    }

    /// The position of the track expected next, or `nil` when the sequence has finished.
    var expectedPosition: Int? {
        var next = cursor.value(0)
        while next < index.positionCount, index.isRemovedOrPrePlayed(next) { next += 1 }
        return next < index.positionCount ? next : nil
    }
}

extension StrictOrderStrategy: TrackAvailability {
    /// A track the sequence has not passed yet.
    package func isPlayable(_ position: Int) -> Bool {
        position < index.positionCount && !index.isRemovedOrPrePlayed(position) && position >= cursor.value(0)
    }
}
