/// Requests must arrive in exactly the recorded order: the next request must have the key of the next
/// track, or it misses naming the track that was expected.
///
/// One atomic cursor: a request claims its position with a compare-and-exchange, so two concurrent
/// requests can never both take the same step.
public struct StrictOrderStrategy: MatchingStrategy {
    private let index: TrackIndex
    private let cursor = AtomicCounters(count: 1)

    /// A strict-order strategy over `index`.
    public init(index: TrackIndex) {
        self.index = index
    }

    /// The next track, if the request is the one expected next.
    public func match(_ request: IncomingRequest) -> StrategyOutcome {
        let trackCount = index.tracks.count
        let group = index.keyGroup(for: request.key)
        while true {
            let next = cursor.value(0)
            guard next < trackCount else { return .miss(.sequenceFinished(trackCount: trackCount)) }
            guard let group, index.keys.groupOfTrack[next] == group else {
                return .miss(.outOfOrder(expectedPosition: next))
            }
            if cursor.advance(0, from: next, to: next + 1) {
                return .hit(Hit(track: index.tracks[next], source: .track(position: next)))
            }
        }
    }

    /// Rewinds to the first track.
    public func reset() {
        cursor.resetAll()
    }

    /// The position of the track expected next, or `nil` when the sequence has finished.
    public var expectedPosition: Int? {
        let next = cursor.value(0)
        return next < index.tracks.count ? next : nil
    }
}
