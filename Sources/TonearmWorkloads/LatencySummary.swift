/// Percentiles and throughput of a set of per-operation latencies.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// How many operations were timed.
    public var count: Int
    /// The median, in nanoseconds.
    public var p50Nanoseconds: Double
    /// The 99th percentile, in nanoseconds.
    public var p99Nanoseconds: Double
    /// The mean, in nanoseconds.
    public var meanNanoseconds: Double

    /// Operations per second at the mean latency, one at a time.
    public var perSecond: Double { meanNanoseconds > 0 ? 1e9 / meanNanoseconds : 0 }

    /// Summarises `nanoseconds` (one sample per operation); all zero when empty.
    public init(nanoseconds: [Double]) {
        count = nanoseconds.count
        guard !nanoseconds.isEmpty else {
            p50Nanoseconds = 0
            p99Nanoseconds = 0
            meanNanoseconds = 0
            return
        }
        let sorted = nanoseconds.sorted()
        // Nearest-rank percentiles: an observed value, never an interpolation between two.
        func percentile(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        p50Nanoseconds = percentile(0.5)
        p99Nanoseconds = percentile(0.99)
        meanNanoseconds = sorted.reduce(0, +) / Double(sorted.count)
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
