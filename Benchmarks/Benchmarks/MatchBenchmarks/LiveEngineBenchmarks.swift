import Benchmark
import BenchmarkSupport
import Foundation
import Synchronization
import Tonearm
import TonearmWorkloads

/// Issue 8: the live engine. Adding 100,000 tracks one `add` at a time against building the same engine
/// from the whole list (goal: ≤ 2×), and `match` (repeat, 10k tracks, realistic hits) idle against the
/// same while another thread keeps adding tracks (goal: p50 within 10 %).
func registerLiveEngineBenchmarks() {
    for oneAtATime in [false, true] {
        Benchmark(
            oneAtATime ? "Live add 100k tracks one at a time" : "Live build 100k tracks in bulk",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds,
                warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 5)
        ) { (benchmark: Benchmark, workload: Workload) in
            if oneAtATime {
                let engine = ReplayEngine(strategy: .repeat)
                for track in workload.tracks { engine.add(track) }
                blackHole(engine)
            } else {
                blackHole(ReplayEngine(tracks: workload.tracks, strategy: .repeat))
            }
        } setup: { () -> Workload in
            Workload(trackCount: 100_000, seed: 42)
        }
    }
    for appending in [false, true] {
        Benchmark(
            appending ? "Live match repeat 10k hit while appending" : "Live match repeat 10k hit idle",
            configuration: .init(warmupIterations: 100, maxDuration: .seconds(2), maxIterations: 20_000)
        ) { (benchmark: Benchmark, replayer: Box<StreamReplayer>) in
            replayer.value.prepare(batch: 1)
            benchmark.startMeasurement()
            let hits = replayer.value.replay(batch: 1)
            benchmark.stopMeasurement()
            if hits != 1 { benchmark.error("a hit request missed") }
        } setup: { () throws -> Box<StreamReplayer> in
            let fixture = try MatchFixture(scale: .tenThousand)
            let engine = ReplayEngine(tracks: fixture.workload.tracks, strategy: .repeat)
            if appending {
                // Other traffic's tracks, added until the process ends (each benchmark runs in its own).
                let extra = Workload(trackCount: 50_000, seed: 7).tracks
                Thread {
                    while true { for track in extra { engine.add(track) } }
                }.start()
            }
            return Box(StreamReplayer(engine: engine, requests: fixture.hits(for: .repeat), resetsAtWrap: false))
        }
    }
}
