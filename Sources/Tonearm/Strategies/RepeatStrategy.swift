/// The first track recorded for a key answers every request with that key. Stateless, so it never
/// takes a lock and scales with the number of cores.
public struct RepeatStrategy: MatchingStrategy {
    private let index: TrackIndex

    /// A repeat strategy over `index`.
    public init(index: TrackIndex) {
        self.index = index
    }

    /// The first track for the request's key.
    public func match(_ request: IncomingRequest) -> StrategyOutcome {
        guard let group = index.keyGroup(for: request.key) else { return .miss(.notRecorded) }
        let position = index.keys.member(0, of: group)
        return .hit(Hit(track: index.tracks[position], source: .track(position: position)))
    }
}
