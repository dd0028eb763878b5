import Benchmark
import BenchmarkSupport
import Tonearm
import TonearmWorkloads

/// `ReplayEngine.match` per strategy and scale: realistic hits (exact, permuted query, reordered JSON;
/// every track once for unique-play and strict order, reset between passes outside the timing), and
/// near-misses, which build the full miss report (the three closest tracks and their differences).
/// The `repeat` miss rows are issue 3's near-miss report benchmark.
///
/// One request per iteration, so the percentiles are per match: the stream mixes 40-byte GETs with
/// 64 KiB JSON bodies, and the mean of a batch would be the mean, not the median, of that mix.
func registerStrategyBenchmarks() {
    for scale in Scale.allCases {
        for strategy in BenchStrategy.allCases {
            for kind in ["hit", "miss"] {
                Benchmark(
                    "Match \(strategy.rawValue) \(scale.label) \(kind)",
                    configuration: .init(
                        warmupIterations: 100, maxDuration: .seconds(kind == "hit" ? 1 : 2),
                        maxIterations: kind == "hit" ? 20_000 : 3_000)
                ) { (benchmark: Benchmark, replayer: Box<StreamReplayer>) in
                    replayer.value.prepare(batch: 1)
                    benchmark.startMeasurement()
                    let hits = replayer.value.replay(batch: 1)
                    benchmark.stopMeasurement()
                    // A benchmark of hits that miss (or of misses that hit) would measure the wrong thing;
                    // a chain's near-misses may be answered by its rules, as a chain is meant to.
                    if kind == "hit" ? hits != 1 : hits != 0 && strategy != .chain {
                        benchmark.error("a \(kind) request \(hits == 1 ? "hit" : "missed")")
                    }
                } setup: { () throws -> Box<StreamReplayer> in
                    let fixture = try MatchFixture(scale: scale)
                    let engine = ReplayEngine(
                        tracks: fixture.workload.tracks, strategy: strategy.strategy(rules: fixture.rules))
                    let requests = kind == "hit" ? fixture.hits(for: strategy) : fixture.misses()
                    return Box(StreamReplayer(
                        engine: engine, requests: requests, resetsAtWrap: kind == "hit" && strategy.consumesTracks))
                }
            }
        }
    }
}
