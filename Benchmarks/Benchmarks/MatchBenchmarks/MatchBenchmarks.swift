import Benchmark

/// Issue 3, benchmarks 2, 4, 5 and 6: matching per strategy against the linear baseline, the near-miss
/// report, loading and indexing, and concurrent matching — at 1,000, 10,000 and 100,000 tracks.
///
/// Every benchmark generates its workload in its setup (the tool runs each benchmark in its own
/// process), so generation and indexing are never timed except where they are the subject.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], timeUnits: .nanoseconds, warmupIterations: 2,
        maxDuration: .seconds(1), maxIterations: 200)
    registerStrategyBenchmarks()
    registerBaselineBenchmarks()
    registerLoadingBenchmarks()
    registerConcurrencyBenchmarks()
    registerLiveEngineBenchmarks()
}
