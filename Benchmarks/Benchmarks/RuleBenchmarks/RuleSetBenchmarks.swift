import Benchmark
import BenchmarkSupport
import Tonearm
import TonearmWorkloads

/// A stream of requests (90 % built from a rule drawn uniformly, 10 % misses on known hosts) against 10,
/// 100, 1,000 and 10,000 rules: the engine's `RuleStrategy` (one literal search per block of rules, then
/// the candidates) next to the naive matcher, which is left out at 10,000 (its setup alone, checking it
/// agrees on every request, would take minutes). One request per iteration on both sides, so the
/// percentiles are per request.
func registerRuleSetBenchmarks() {
    for ruleCount in [10, 100, 1_000, 10_000] {
        Benchmark(
            "Rules engine \(ruleCount) rules", configuration: .init(maxIterations: 20_000)
        ) { (benchmark: Benchmark, state: Box<RuleState>) in
            let request = state.value.fixture.incoming[state.value.next]
            state.value.next = (state.value.next + 1) % state.value.fixture.incoming.count
            benchmark.startMeasurement()
            blackHole(state.value.fixture.strategy.match(request))
        } setup: { () throws -> Box<RuleState> in
            Box(RuleState(fixture: try RuleFixture(ruleCount: ruleCount)))
        }

        guard ruleCount <= 1_000 else { continue }
        Benchmark(
            "Rules naive Swift Regex \(ruleCount) rules",
            configuration: .init(maxIterations: ruleCount >= 1_000 ? 2_000 : 20_000)
        ) { (benchmark: Benchmark, state: Box<NaiveRuleState>) in
            let request = state.value.fixture.incoming[state.value.next]
            state.value.next = (state.value.next + 1) % state.value.fixture.incoming.count
            benchmark.startMeasurement()
            blackHole(state.value.naive.firstMatch(for: request))
        } setup: { () throws -> Box<NaiveRuleState> in
            let fixture = try RuleFixture(ruleCount: ruleCount)
            let naive = try fixture.naive(.swiftRegex)
            // The yardstick must give the engine's answers, or the ratio compares different work.
            for request in fixture.incoming where naive.firstMatch(for: request) != fixture.engineAnswer(request) {
                throw RuleBenchmarkError.disagreement(request.request.method + " " + request.request.url)
            }
            return Box(NaiveRuleState(fixture: fixture, naive: naive))
        }
    }
}

/// The engine side's fixture and stream position.
struct RuleState {
    let fixture: RuleFixture
    var next = 0
}

/// The naive side's fixture, matcher and stream position.
struct NaiveRuleState {
    let fixture: RuleFixture
    let naive: NaiveRuleMatcher
    var next = 0
}

/// Why a rule benchmark could not start.
enum RuleBenchmarkError: Error {
    /// The naive matcher and the engine chose different rules for this request.
    case disagreement(String)
}
