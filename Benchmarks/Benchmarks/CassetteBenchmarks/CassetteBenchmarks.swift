import Benchmark
import Tonearm
import TonearmCassettes
import TonearmWorkloads

/// Issue 4's loading targets: a 10,000-track native cassette (about 20 MB) loaded and indexed in ≤ 1 s,
/// the same tracks as HAR in ≤ 2 s. The cassettes are the generated workload's tracks, encoded in setup.
let benchmarks: @Sendable () -> Void = {
    let megabytes = BenchmarkMetric.custom("cassette MB", polarity: .prefersSmaller, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal, megabytes],
        timeUnits: .milliseconds, warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 10)

    Benchmark("Cassette native load and index 10k tracks", configuration: configuration) {
        (benchmark: Benchmark, bytes: [UInt8]) in
        let cassette = try NativeFormat.decode(bytes)
        let engine = ReplayEngine(tracks: cassette.tracks)
        benchmark.stopMeasurement()
        benchmark.measurement(megabytes, bytes.count / 1_000_000)
        blackHole(engine)
    } setup: {
        try NativeFormat.encode(Cassette(name: "bench", tracks: Workload(trackCount: 10_000, seed: 42).tracks))
    }

    Benchmark("Cassette HAR load and index 10k tracks", configuration: configuration) {
        (benchmark: Benchmark, bytes: [UInt8]) in
        let imported = try HARFormat.decode(bytes)
        let engine = ReplayEngine(tracks: imported.cassette.tracks)
        benchmark.stopMeasurement()
        benchmark.measurement(megabytes, bytes.count / 1_000_000)
        blackHole(engine)
    } setup: {
        try HARFormat.encode(Cassette(name: "bench", tracks: Workload(trackCount: 10_000, seed: 42).tracks))
    }

    Benchmark("Cassette native save 10k tracks", configuration: configuration) {
        (benchmark: Benchmark, cassette: Cassette) in
        let bytes = try NativeFormat.encode(cassette)
        benchmark.stopMeasurement()
        benchmark.measurement(megabytes, bytes.count / 1_000_000)
    } setup: {
        Cassette(name: "bench", tracks: Workload(trackCount: 10_000, seed: 42).tracks)
    }
}
