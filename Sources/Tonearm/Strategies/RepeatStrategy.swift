/// The first track recorded for a key answers every request with that key (tracks added later with
/// the same key never answer while it is there; if it is removed, the next one takes over). Tracks
/// with a scenario are stepped over: the engine's scenario stage answers them. Stateless,
/// so it never takes a lock and scales with the number of cores.
struct RepeatStrategy: KeyedMatchingStrategy {
    private let index: TrackIndex

    /// A repeat strategy over `index`.
    init(index: TrackIndex) {
        self.index = index
    }

    /// The first live track for `key`.
    func match(key: RequestKey, request: Request) -> StrategyOutcome {
        guard let group = index.keyGroup(for: key) else { return .miss(.notRecorded) }
        var candidate = index.keys.first(of: group)
        while let position = candidate {
            if !index.isRemovedOrScenario(position) {
                return .hit(Hit(recordedAt: position, in: index, answering: request))
            }
            candidate = index.keys.next(after: position)
        }
        return .miss(.notRecorded)
    }
}
