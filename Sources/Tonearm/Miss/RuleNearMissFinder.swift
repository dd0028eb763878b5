/// Finds the stub rules closest to a request that missed: each candidate's conditions are all
/// evaluated (matching stops at the first that fails), and the rules with the fewest and lightest unmet
/// conditions are reported.
///
/// At most ``RuleNearMissFinder/candidateLimit`` rules are compared (those the request's buckets hold
/// first, see ``LiveRules/nearMissCandidates(for:limit:)``), so a miss costs the same with 1,000 rules as
/// with 100,000. The price: in a bucket of more rules than that (thousands of patterns under one first
/// path segment) only the first by priority are compared.
enum RuleNearMissFinder {
    /// How many rules a miss report compares at most.
    static let candidateLimit = 128

    /// The closest rules, closest first (equal ones by priority, then added order), and how many were
    /// compared.
    static func nearest(to request: IncomingRequest, in rules: LiveRules, states: ScenarioStates) -> (nearest: [RuleNearMiss], compared: Int) {
        let candidates = rules.nearMissCandidates(for: request, limit: candidateLimit)
        guard !candidates.isEmpty else { return ([], 0) }
        var parts = LazyRequestParts(request)
        var urlTarget: String?
        let ranked = candidates.map { entry -> (rank: RuleRank, waitsForState: Int, nearMiss: RuleNearMiss) in
            let compiled = entry.compiled
            let target: String
            switch compiled.rule.target {
            case .path:
                target = request.canonical.url.path
            case .url:
                if urlTarget == nil { urlTarget = Rule.Target.url.text(of: request.canonical.url) }
                target = urlTarget ?? ""
            }
            var differences = compiled.unmetConditions(request, target: target, parts: &parts)
            var waitsForState = 1
            if differences.isEmpty, let step = compiled.rule.scenario, let required = step.requiredState {
                let current = states.state(of: step.name)
                if current != required {
                    differences.append(.scenarioState(scenario: step.name, current: current, required: required))
                    waitsForState = 0
                }
            }
            return (entry.rank, waitsForState, RuleNearMiss(position: compiled.declaredIndex, rule: compiled.rule, differences: differences))
        }
        // Among equally close rules, one whose conditions all hold but whose scenario is elsewhere
        // explains the miss best, so it comes first.
        .sorted { ($0.nearMiss.distance, $0.waitsForState, $0.rank) < ($1.nearMiss.distance, $1.waitsForState, $1.rank) }
        .prefix(NearMissFinder.reportedCount)
        .map(\.nearMiss)
        return (Array(ranked), candidates.count)
    }
}
