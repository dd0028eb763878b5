import Benchmark
import BenchmarkSupport
import Tonearm
import TonearmWorkloads

/// The linear-scan baseline (Vinyl, DVR and Replay's way) on the same tracks and requests as the
/// `repeat` rows: one request per iteration, since one request already scans thousands of tracks.
/// A hit scans until its track (half the tracks on average), a miss scans them all.
func registerBaselineBenchmarks() {
    for scale in Scale.allCases {
        for kind in ["hit", "miss"] {
            // 100,000 tracks take a tenth of a second or more per request: a few samples only.
            let iterations = scale == .hundredThousand ? 12 : scale == .tenThousand ? 60 : 300
            Benchmark(
                "Baseline linear \(scale.label) \(kind)",
                configuration: .init(warmupIterations: 1, maxDuration: .seconds(3), maxIterations: iterations)
            ) { (benchmark: Benchmark, state: Box<BaselineState>) in
                let request = state.value.requests[state.value.next % state.value.requests.count]
                state.value.next += 1
                benchmark.startMeasurement()
                let found = state.value.matcher.firstMatch(for: request)
                benchmark.stopMeasurement()
                if (found != nil) != (kind == "hit") {
                    benchmark.error("the baseline \(found == nil ? "missed a hit" : "hit a miss")")
                }
            } setup: { () throws -> Box<BaselineState> in
                let fixture = try MatchFixture(scale: scale)
                let requests = kind == "hit" ? fixture.hits(for: .repeat) : fixture.misses()
                return Box(BaselineState(matcher: LinearScanMatcher(tracks: fixture.workload.tracks), requests: requests))
            }
        }
    }
}

/// The baseline matcher and its position in the request stream.
struct BaselineState {
    let matcher: LinearScanMatcher
    let requests: [Request]
    var next = 0
}
