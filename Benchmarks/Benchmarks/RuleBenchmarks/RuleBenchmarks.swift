import Benchmark

/// Issue 3, benchmark 3: regex rules through the engine's prefilter against the naive matcher (every
/// rule in order, same regex engine), and Swift `Regex` against `NSRegularExpression` on the rules'
/// patterns; and (issue 18) one rule's pattern over an 80 KB path, crafted patterns included.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], timeUnits: .nanoseconds, warmupIterations: 2,
        maxDuration: .seconds(1), maxIterations: 500)
    registerRuleSetBenchmarks()
    registerRegexEngineBenchmarks()
    registerRulePatternBenchmarks()
    registerWorstCasePatternBenchmarks()
}
