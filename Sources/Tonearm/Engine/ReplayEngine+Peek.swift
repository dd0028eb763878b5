/// Asking what would answer a request without answering it: what an admin API's "near misses for this
/// request" needs from the live engine, instead of a copy of the engine built per question.
extension ReplayEngine {
    /// What would answer `request` if every scenario were in the state its stubs need, changing nothing:
    /// no scenario moves and nothing counts as played. The first live track recorded for its key, else
    /// the first live rule whose conditions hold (by priority and declared order), else a miss whose
    /// report lists the nearest tracks and rules as a real miss's does. O(1) in the number of tracks, like `match`.
    package func peek(_ request: Request) -> MatchResult {
        let incoming = incomingRequest(for: request)
        if let position = index.positions(for: incoming.key).first {
            return .hit(Hit(recordedAt: position, in: index))
        }
        let rules = ruleStage.firstMatch(for: incoming)
        if let rule = rules.rule { return .hit(LiveRules.hit(rule, for: incoming)) }
        let reason: MissReason = ruleStage.count > 0 ? .noRuleMatched(ruleCount: ruleStage.count, rulesTried: rules.tried) : .notRecorded
        return .miss(report(for: incoming, reason: reason))
    }

    /// The first live track recorded for `request`'s key, whatever its scenario's state, changing
    /// nothing; `nil` when none is. O(1) in the number of tracks.
    package func firstTrack(for request: IncomingRequest) -> Hit? {
        guard let position = index.positions(for: request.key).first else { return nil }
        return Hit(recordedAt: position, in: index)
    }

    /// The answer of the first live rule whose ``Rule/priority`` is lower than `priority` and whose
    /// conditions hold (its scenario, if any, in the state it needs, which it then moves as `match`
    /// does), or `nil` when there is none. Only the rules ranked before `priority` are looked at, so
    /// when a keyed answer is found first (a stub server ranking exact stubs among pattern stubs), asking
    /// whether a better-ranked rule overrides it costs nothing when no rule is ranked that high.
    package func matchRules(_ request: IncomingRequest, priorityBelow priority: Int) -> Hit? {
        guard ruleStage.count > 0, case .hit(let hit) = ruleStage.match(request, scenarios: index.scenarioStates, priorityBelow: priority)
        else { return nil }
        countPlay(hit)
        return hit
    }
}
