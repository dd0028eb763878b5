import Benchmark
import Tonearm
import TonearmWorkloads

/// Issue 3, benchmark 1: the cost of a request's key (canonical form plus both XXH3 hashes) for the
/// request shapes the goals name, and the RFC 8785 canonicaliser's throughput on a 64 KiB document.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 20,
        maxDuration: .seconds(1), maxIterations: 5_000)
    registerKeyBenchmarks()
    registerCanonicalizationBenchmarks()
}

/// Keys for the four request shapes; each iteration computes 100 keys of the small ones, so a
/// sample's time ÷ 100 is one key (the per-key times are tens to thousands of nanoseconds, where the
/// timer's own cost would otherwise show).
func registerKeyBenchmarks() {
    let canonicalizer = RequestCanonicalizer()
    let shapes: [(name: String, request: Request, keysPerIteration: Int)] = [
        ("GET 120-char URL 6 params", KeyRequests.get(), 100),
        ("POST 1 KiB JSON", KeyRequests.jsonPost(bodyBytes: 1_024), 100),
        ("POST form body", KeyRequests.formPost(), 100),
        ("POST 64 KiB JSON", KeyRequests.jsonPost(bodyBytes: 65_536), 1),
    ]
    for shape in shapes {
        let suffix = shape.keysPerIteration == 1 ? "" : " x\(shape.keysPerIteration)"
        Benchmark("Key \(shape.name)\(suffix)") { benchmark in
            for _ in 0..<shape.keysPerIteration {
                blackHole(canonicalizer.key(for: shape.request))
            }
        }
    }
}

/// RFC 8785 canonicalisation alone, reported as MB/s (10⁶ bytes per second) too, for two 64 KiB shapes:
/// the workload's wide object (hundreds of members to sort in one object) and an array of small records.
func registerCanonicalizationBenchmarks() {
    let megabytesPerSecond = BenchmarkMetric.custom("JSON MB/s", polarity: .prefersLarger, useScalingFactor: false)
    let documents = [
        ("JSON canonicalize 64 KiB", KeyRequests.jsonDocument(bodyBytes: 65_536)),
        ("JSON canonicalize 64 KiB records", KeyRequests.jsonRecords(bodyBytes: 65_536)),
    ]
    for (name, document) in documents {
        Benchmark(
            name, configuration: .init(metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond])
        ) { benchmark in
            let canonicalizer = JSONCanonicalizer()
            let clock = ContinuousClock()
            let start = clock.now
            var output: [UInt8] = []
            output.reserveCapacity(document.count)
            document.withUnsafeBytes { bytes in
                do throws(JSONSyntaxError) {
                    try canonicalizer.canonicalize(bytes, appendingTo: &output)
                } catch {
                    benchmark.error("the generated document does not parse: \(error)")
                }
            }
            blackHole(output)
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            benchmark.measurement(megabytesPerSecond, Int(Double(document.count) / max(seconds, 1e-12) / 1e6))
        }
    }
}
