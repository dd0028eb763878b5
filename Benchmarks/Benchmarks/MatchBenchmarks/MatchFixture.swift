import Tonearm
import TonearmWorkloads

/// A generated workload at one scale and the request streams the matching benchmarks replay.
struct MatchFixture {
    let workload: Workload
    /// The chain strategy's rule stage: 100 rules over the same hosts and routes.
    let rules: RuleSet

    init(scale: Scale) throws {
        workload = Workload(trackCount: scale.rawValue, seed: 42)
        rules = try RuleSet(RuleWorkload(ruleCount: 100).rules)
    }

    /// Requests that hit under `strategy`.
    func hits(for strategy: BenchStrategy) -> [Request] {
        strategy.hitStream(for: workload, count: 10_000, seed: 43).map(\.request)
    }

    /// Near-misses: one detail changed from a recorded request (query value, JSON leaf, path or method).
    func misses() -> [Request] {
        workload.stream(count: 2_000, mix: .missesOnly, seed: 44).map(\.request)
    }
}
