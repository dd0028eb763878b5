import Benchmark
import Tonearm
import TonearmWorkloads

/// Canonicalising and indexing N tracks into a `ReplayEngine`, with the process's peak resident memory
/// and the index's own bytes per track (`TrackIndex.indexBytes / count`: the tables, not the tracks).
func registerLoadingBenchmarks() {
    let bytesPerTrack = BenchmarkMetric.custom("index bytes per track", polarity: .prefersSmaller, useScalingFactor: false)
    for scale in Scale.allCases {
        Benchmark(
            "Load and index \(scale.label) tracks",
            configuration: .init(
                metrics: [.wallClock, .peakMemoryResident, .peakMemoryResidentDelta, .mallocCountTotal, bytesPerTrack],
                timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(3),
                maxIterations: scale == .hundredThousand ? 5 : 20)
        ) { (benchmark: Benchmark, workload: Workload) in
            let engine = ReplayEngine(tracks: workload.tracks, strategy: .repeat)
            benchmark.stopMeasurement()
            benchmark.measurement(bytesPerTrack, engine.index.indexBytes / max(workload.tracks.count, 1))
            blackHole(engine)
        } setup: { () -> Workload in
            Workload(trackCount: scale.rawValue, seed: 42)
        }
    }
}
