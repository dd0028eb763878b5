import Tonearm
import TonearmWorkloads

/// A rule workload compiled both ways, with its stream already canonicalised: the engine canonicalises
/// each request once whatever the strategy, so both matchers start from the same `IncomingRequest` and
/// the difference is rule selection alone.
struct RuleFixture {
    /// The rule stage alone (``Strategy/rules(_:)``), called through the protocol as the engine calls it.
    let strategy: any MatchingStrategy
    let incoming: [IncomingRequest]
    let workload: RuleWorkload

    init(ruleCount: Int, missShare: Double = 0.1) throws {
        workload = RuleWorkload(ruleCount: ruleCount)
        let engine = ReplayEngine(tracks: [], strategy: .rules(try RuleSet(workload.rules)))
        strategy = engine.strategy
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
