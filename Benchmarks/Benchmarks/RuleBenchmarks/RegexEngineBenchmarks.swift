import Benchmark
import Foundation
import BenchmarkSupport
import Tonearm
import TonearmWorkloads

/// Swift `Regex` against `NSRegularExpression` on the rule workload's patterns: the naive matcher over
/// 100 rules (every pattern tried until one matches) with each engine, one request per iteration; and
/// one typical anchored URL pattern against a matching and a non-matching URL with each engine and each
/// way of asking Swift `Regex` (1,000 evaluations per iteration, reported per evaluation).
func registerRegexEngineBenchmarks() {
    registerSinglePatternBenchmarks()
    for engine in NaiveRuleMatcher.Engine.allCases {
        Benchmark(
            "Regex engine \(engine.rawValue) naive 100 rules", configuration: .init(maxIterations: 20_000)
        ) { (benchmark: Benchmark, state: Box<NaiveRuleState>) in
            let request = state.value.fixture.incoming[state.value.next]
            state.value.next = (state.value.next + 1) % state.value.fixture.incoming.count
            benchmark.startMeasurement()
            blackHole(state.value.naive.firstMatch(for: request))
        } setup: { () throws -> Box<NaiveRuleState> in
            let fixture = try RuleFixture(ruleCount: 100)
            return Box(NaiveRuleState(fixture: fixture, naive: try fixture.naive(engine)))
        }
    }
}

/// The rule workload's most common pattern shape, and URLs it does and does not match.
enum SinglePattern {
    static let pattern = #"^https://api7\.example\.com/v1/users/[0-9]+/orders(\?.*)?$"#
    static let matching = "https://api7.example.com/v1/users/10042/orders?page=3&sort=created_at"
    /// Same origin, another route: the prefix check alone would reject it after 34 bytes.
    static let missing = "https://api7.example.com/v2/orders/10042?page=3&sort=created_at"
}

func registerSinglePatternBenchmarks() {
    let evaluate: [(name: String, make: () throws -> (String) -> Bool)] = [
        ("Swift Regex contains", {
            let regex = try Regex(SinglePattern.pattern)
            return { $0.contains(regex) }
        }),
        ("Swift Regex wholeMatch", {
            let regex = try Regex(SinglePattern.pattern)
            return { (try? regex.wholeMatch(in: $0)) != nil }
        }),
        ("Swift Regex prefixMatch", {
            let regex = try Regex(SinglePattern.pattern)
            return { (try? regex.prefixMatch(in: $0)) != nil }
        }),
        ("NSRegularExpression firstMatch", {
            let regex = try NSRegularExpression(pattern: SinglePattern.pattern)
            return { regex.firstMatch(in: $0, range: NSRange(location: 0, length: $0.utf16.count)) != nil }
        }),
    ]
    for (name, make) in evaluate {
        for (kind, target, expected) in [("match", SinglePattern.matching, true), ("no match", SinglePattern.missing, false)] {
            Benchmark("Regex one pattern \(name) \(kind)", configuration: .init(scalingFactor: .kilo)) {
                (benchmark: Benchmark, matches: Box<(String) -> Bool>) in
                for _ in benchmark.scaledIterations {
                    blackHole(matches.value(target))
                }
                if matches.value(target) != expected { benchmark.error("\(name) gave the wrong answer") }
            } setup: { () throws -> Box<(String) -> Bool> in
                Box(try make())
            }
        }
    }
}
