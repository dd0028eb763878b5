import Tonearm

/// The quick benchmark behind `tonearm bench`: replays request streams against an engine per strategy,
/// timing every match, and times a sample of the same requests against the ``LinearScanMatcher`` to give
/// each strategy its ratio to the linear baseline. Seconds, not minutes: the Benchmarks package is where
/// the recorded numbers come from.
public struct QuickBench: Sendable {
    /// The recorded tracks.
    public var tracks: [Track]
    /// The requests each strategy replays; they should all hit under that strategy.
    public var hitRequests: @Sendable (BenchStrategy) -> [Request]
    /// Requests that miss, timed with their miss report under `repeat`; none to skip that row.
    public var missRequests: [Request]
    /// The chain's rule stage, if any.
    public var rules: RuleSet?
    /// How many requests the linear baseline times (each scans up to every track).
    public var baselineSample: Int
    /// What the keys are made of (a cassette's import may imply one, e.g. path instead of URL).
    public var configuration: MatchingConfiguration

    /// Creates a quick benchmark.
    public init(
        tracks: [Track], hitRequests: @escaping @Sendable (BenchStrategy) -> [Request],
        missRequests: [Request] = [], rules: RuleSet? = nil, baselineSample: Int = 50,
        configuration: MatchingConfiguration = .default
    ) {
        self.tracks = tracks
        self.hitRequests = hitRequests
        self.missRequests = missRequests
        self.rules = rules
        self.baselineSample = baselineSample
        self.configuration = configuration
    }

    /// Runs every strategy, the miss row and the baseline.
    public func run(strategies: [BenchStrategy] = BenchStrategy.allCases) -> QuickBenchReport {
        let clock = ContinuousClock()
        var loadedEngine: ReplayEngine?
        let loading = clock.measure { loadedEngine = ReplayEngine(tracks: tracks, configuration: configuration) }
        let distinctKeys = loadedEngine?.index.distinctKeyCount ?? 0
        let indexBytes = loadedEngine?.index.indexBytes ?? 0
        loadedEngine = nil

        let baseline = baselineLatency(requests: hitRequests(.repeat), clock: clock)
        var rows: [QuickBenchRow] = []
        for strategy in strategies {
            let engine = ReplayEngine(
                tracks: tracks, strategy: strategy.strategy(rules: rules), configuration: configuration)
            let (latency, hits) = Self.time(hitRequests(strategy), on: engine, clock: clock)
            rows.append(QuickBenchRow(name: strategy.rawValue, kind: "hit", latency: latency, hits: hits,
                                      baseline: baseline))
        }
        if !missRequests.isEmpty {
            let engine = ReplayEngine(tracks: tracks, strategy: .repeat, configuration: configuration)
            let (latency, hits) = Self.time(missRequests, on: engine, clock: clock)
            rows.append(QuickBenchRow(name: "repeat", kind: "miss + report", latency: latency, hits: hits,
                                      baseline: nil))
        }
        return QuickBenchReport(
            trackCount: tracks.count, distinctKeyCount: distinctKeys, loadMilliseconds: loading.nanoseconds / 1e6,
            indexBytesPerTrack: tracks.isEmpty ? 0 : Double(indexBytes) / Double(tracks.count),
            baseline: baseline, rows: rows)
    }

    /// Times every request once after a short warm-up (the engine is reset after it).
    static func time(_ requests: [Request], on engine: ReplayEngine, clock: ContinuousClock) -> (LatencySummary, Int) {
        for request in requests.prefix(500) { _ = engine.match(request) }
        engine.reset()
        var samples: [Double] = []
        samples.reserveCapacity(requests.count)
        var hits = 0
        for request in requests {
            let start = clock.now
            let result = engine.match(request)
            let end = clock.now
            samples.append((end - start).nanoseconds)
            if case .hit = result { hits += 1 }
        }
        return (LatencySummary(nanoseconds: samples), hits)
    }

    private func baselineLatency(requests: [Request], clock: ContinuousClock) -> LatencySummary {
        guard !requests.isEmpty, baselineSample > 0 else { return LatencySummary(nanoseconds: []) }
        let linear = LinearScanMatcher(tracks: tracks)
        let stride = max(requests.count / baselineSample, 1)
        let sample = Swift.stride(from: 0, to: requests.count, by: stride).prefix(baselineSample).map { requests[$0] }
        let samples = sample.map { request in
            clock.measure { _ = linear.firstMatch(for: request) }.nanoseconds
        }
        return LatencySummary(nanoseconds: samples)
    }
}

/// What `tonearm bench` prints.
public struct QuickBenchReport: Sendable, Codable {
    /// The number of tracks loaded.
    public var trackCount: Int
    /// The number of distinct keys among them.
    public var distinctKeyCount: Int
    /// How long canonicalising and indexing the tracks took.
    public var loadMilliseconds: Double
    /// The index's own bytes per track (`TrackIndex.indexBytes / count`).
    public var indexBytesPerTrack: Double
    /// The linear-scan baseline's latency on a sample of the hit requests.
    public var baseline: LatencySummary
    /// One row per strategy, then the miss row.
    public var rows: [QuickBenchRow]
}

/// One strategy's timings.
public struct QuickBenchRow: Sendable, Codable {
    /// The strategy.
    public var name: String
    /// `hit` for the strategy's hit stream, `miss + report` for near-misses.
    public var kind: String
    /// Per-match latency.
    public var latency: LatencySummary
    /// How many of the requests hit.
    public var hits: Int
    /// Matches per second, one at a time, from the mean latency.
    public var matchesPerSecond: Double
    /// The linear baseline's p50 over this row's p50, when compared.
    public var ratioToBaseline: Double?

    init(name: String, kind: String, latency: LatencySummary, hits: Int, baseline: LatencySummary?) {
        self.name = name
        self.kind = kind
        self.latency = latency
        self.hits = hits
        matchesPerSecond = latency.perSecond
        if let baseline, baseline.count > 0, latency.p50Nanoseconds > 0 {
            ratioToBaseline = baseline.p50Nanoseconds / latency.p50Nanoseconds
        }
    }
}
