import Tonearm

/// The rule workload behind `tonearm bench --rules`: for each size, a ``RuleWorkload`` set compiled and
/// indexed into an engine (timed), a stream of its requests (a share built to miss) matched through the
/// engine's rules one at a time, each timed, and the first of the same requests matched by
/// ``NaiveRuleMatcher``, the linear-scan baseline (every rule in turn with Swift `Regex`, as WireMock and
/// OHHTTPStubs match), whose answers are compared with the engine's. The baseline is left out above
/// ``naiveLimit`` rules, where it would take minutes.
///
/// Requests are canonicalised once before timing, so both sides are timed on the same
/// `IncomingRequest`s: the numbers are the rule matching alone, not the request's canonical form.
public struct RuleBench: Sendable {
    /// The rule counts to measure, in order.
    public var sizes: [Int]
    /// How many requests the engine matches at each size.
    public var requests: Int
    /// How many of those the baseline matches too (each tries up to every rule).
    public var naiveSample: Int
    /// The largest rule count the baseline runs at.
    public var naiveLimit: Int
    /// The seed of the rules and of the requests.
    public var seed: UInt64
    /// The share of requests built to match no rule.
    public var missShare: Double

    /// A rule benchmark of `sizes`.
    public init(
        sizes: [Int], requests: Int = 20_000, naiveSample: Int = 200, naiveLimit: Int = 10_000, seed: UInt64 = 42,
        missShare: Double = 0.1
    ) {
        self.sizes = sizes
        self.requests = requests
        self.naiveSample = naiveSample
        self.naiveLimit = naiveLimit
        self.seed = seed
        self.missShare = missShare
    }

    /// Measures every size in turn, handing each row to `progress` as it is done (a size of 100,000 rules
    /// takes seconds to load).
    public func run(progress: (RuleBenchRow) -> Void = { _ in }) throws -> RuleBenchReport {
        var rows: [RuleBenchRow] = []
        for size in sizes {
            let row = try measure(size)
            progress(row)
            rows.append(row)
        }
        return RuleBenchReport(
            requests: requests, naiveSample: naiveSample, naiveLimit: naiveLimit, seed: seed, missShare: missShare,
            rows: rows)
    }

    private func measure(_ size: Int) throws -> RuleBenchRow {
        let clock = ContinuousClock()
        let workload = RuleWorkload(ruleCount: size, seed: seed)
        let loadStart = clock.now
        let engine = ReplayEngine(tracks: [], strategy: .rules(try RuleSet(workload.rules)))
        let loading = clock.now - loadStart
        let stream = workload.stream(count: requests, missShare: missShare, seed: seed &+ 1)
            .map { engine.incomingRequest(for: $0.request) }
        func answer(_ request: IncomingRequest) -> Int? {
            guard case .hit(let hit) = engine.strategy.match(request), case .rule(_, let position) = hit.source else { return nil }
            return position
        }
        for request in stream.prefix(500) { _ = answer(request) }
        var samples: [Double] = []
        samples.reserveCapacity(stream.count)
        var hits = 0
        var answers: [Int?] = []
        answers.reserveCapacity(stream.count)
        for request in stream {
            let start = clock.now
            let position = answer(request)
            let end = clock.now
            samples.append((end - start).nanoseconds)
            answers.append(position)
            if position != nil { hits += 1 }
        }
        var row = RuleBenchRow(
            ruleCount: size, loadMilliseconds: loading.nanoseconds / 1e6, engine: LatencySummary(nanoseconds: samples),
            hits: hits)
        guard size <= naiveLimit else {
            row.naiveSkipped = "more than \(naiveLimit) rules: every rule in turn would take too long (--naive-limit)"
            return row
        }
        let naive = try NaiveRuleMatcher(rules: workload.rules)
        let sample = stream.prefix(naiveSample)
        var naiveSamples: [Double] = []
        var disagreements = 0
        for (offset, request) in sample.enumerated() {
            let start = clock.now
            let position = naive.firstMatch(for: request)
            let end = clock.now
            naiveSamples.append((end - start).nanoseconds)
            if position != answers[offset] { disagreements += 1 }
        }
        row.naive = LatencySummary(nanoseconds: naiveSamples)
        row.compared = sample.count
        row.disagreements = disagreements
        return row
    }
}

/// What `tonearm bench --rules` prints.
public struct RuleBenchReport: Sendable, Codable {
    /// How many requests the engine matched at each size.
    public var requests: Int
    /// How many of them the baseline matched too.
    public var naiveSample: Int
    /// The largest rule count the baseline ran at.
    public var naiveLimit: Int
    /// The seed of the rules and requests.
    public var seed: UInt64
    /// The share of requests built to miss.
    public var missShare: Double
    /// One row per size, in the order asked for.
    public var rows: [RuleBenchRow]

    /// Whether the engine and the baseline answered every compared request alike.
    public var agrees: Bool { rows.allSatisfy { $0.disagreements == 0 } }
}

/// One rule count's measurements.
public struct RuleBenchRow: Sendable, Codable {
    /// How many rules.
    public var ruleCount: Int
    /// How long compiling and indexing them took.
    public var loadMilliseconds: Double
    /// The engine's time per request.
    public var engine: LatencySummary
    /// How many requests a rule answered (the others were built to miss).
    public var hits: Int
    /// The baseline's time per request, unless it was left out.
    public var naive: LatencySummary?
    /// Why the baseline was left out, when it was.
    public var naiveSkipped: String?
    /// How many requests both answered.
    public var compared = 0
    /// How many of those they answered differently (a different first rule, or a hit against a miss).
    public var disagreements = 0

    /// The baseline's median over the engine's, when both ran.
    public var naiveOverEngine: Double? {
        guard let naive, naive.count > 0, engine.p50Nanoseconds > 0 else { return nil }
        return naive.p50Nanoseconds / engine.p50Nanoseconds
    }
}
