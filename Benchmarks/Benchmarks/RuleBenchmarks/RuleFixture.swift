import Tonearm
import TonearmWorkloads

/// A rule workload compiled both ways, with its stream already canonicalised: the engine canonicalises
/// each request once whatever the strategy, so both matchers start from the same `IncomingRequest` and
/// the difference is rule selection alone.
struct RuleFixture {
    let strategy: RuleStrategy
    let incoming: [IncomingRequest]
    let workload: RuleWorkload

    init(ruleCount: Int, missShare: Double = 0.1) throws {
        workload = RuleWorkload(ruleCount: ruleCount)
        strategy = RuleStrategy(rules: try RuleSet(workload.rules))
        let engine = ReplayEngine(tracks: [], strategy: .repeat)
        incoming = workload.stream(count: 2_000, missShare: missShare).map { engine.incomingRequest(for: $0.request) }
    }

    func naive(_ engine: NaiveRuleMatcher.Engine) throws -> NaiveRuleMatcher {
        try NaiveRuleMatcher(rules: workload.rules, engine: engine)
    }

    /// The declared position of the rule the engine answers with, to check the naive matcher agrees.
    func engineAnswer(_ request: IncomingRequest) -> Int? {
        guard case .hit(let hit) = strategy.match(request), case .rule(_, let position) = hit.source else { return nil }
        return position
    }
}
