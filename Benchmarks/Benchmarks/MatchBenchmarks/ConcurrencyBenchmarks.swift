import Benchmark
import Dispatch
import Foundation
import Tonearm
import TonearmWorkloads

/// One engine (10,000 tracks) shared by 1, 2 and 4 threads, each replaying its own slice of a hit
/// stream: total matches per second. `repeat` takes no lock; `fifo` bumps an atomic counter per key.
/// This machine has 2 cores, so 4 threads measure contention rather than more parallelism.
///
/// Threads rather than a task group: the benchmark tool runs async benchmarks from a task while it
/// blocks a thread of the cooperative pool, which on 2 cores leaves one thread for every child task
/// and hides any scaling.
func registerConcurrencyBenchmarks() {
    let matchesPerIteration = 8_000
    let matchesPerSecond = BenchmarkMetric.custom("matches/s", polarity: .prefersLarger, useScalingFactor: false)
    for strategy in [BenchStrategy.repeat, .fifo] {
        for threads in [1, 2, 4] {
            Benchmark(
                "Concurrent \(strategy.rawValue) 10k \(threads) threads",
                configuration: .init(metrics: [.wallClock, matchesPerSecond], timeUnits: .microseconds,
                                     maxDuration: .seconds(2), maxIterations: 100)
            ) { (benchmark: Benchmark, shared: (ReplayEngine, [Request])) in
                let (engine, requests) = shared
                let share = matchesPerIteration / threads
                let finished = DispatchGroup()
                let clock = ContinuousClock()
                let start = clock.now
                for thread in 0..<threads {
                    finished.enter()
                    Thread {
                        // Each thread starts at its own offset, as independent clients would.
                        var position = thread * share
                        for _ in 0..<share {
                            blackHole(engine.match(requests[position % requests.count]))
                            position += 1
                        }
                        finished.leave()
                    }.start()
                }
                finished.wait()
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                benchmark.measurement(matchesPerSecond, Int(Double(share * threads) / max(seconds, 1e-12)))
            } setup: { () throws -> (ReplayEngine, [Request]) in
                let fixture = try MatchFixture(scale: .tenThousand)
                let engine = ReplayEngine(tracks: fixture.workload.tracks, strategy: strategy.strategy())
                return (engine, fixture.hits(for: strategy))
            }
        }
    }
}
