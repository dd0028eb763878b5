/// Stages tried in order, e.g. recorded tracks, then rules, then a fallback; the first hit answers.
struct ChainStrategy: MatchingStrategy {
    private let stages: [any MatchingStrategy]

    /// A chain of `stages`.
    init(stages: [any MatchingStrategy]) {
        self.stages = stages
    }

    /// The first stage's hit, or every stage's reason for missing.
    func match(_ request: IncomingRequest) -> StrategyOutcome {
        var reasons: [MissReason] = []
        for stage in stages {
            switch stage.match(request) {
            case .hit(let hit): return .hit(hit)
            case .miss(let reason): reasons.append(reason)
            }
        }
        return .miss(reasons.count == 1 ? reasons[0] : .everyStageMissed(reasons))
    }

    /// Resets every stage.
    func reset() {
        for stage in stages { stage.reset() }
    }
}
