import ArgumentParser
import Tonearm
import TonearmWorkloads

/// `tonearm demo`: the README's main job. Builds an engine over thousands of generated tracks, replays a
/// stream with permuted queries, reordered JSON bodies and near-misses, checks every answer, and shows
/// what a miss report looks like.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Replay a generated request stream against thousands of tracks and explain the misses.")

    @Option(help: "How many tracks to record.") var tracks = 5_000
    @Option(help: "How many requests to replay.") var requests = 20_000
    @Option(help: "The seed of the generated traffic.") var seed: UInt64 = 42
    @Option(help: "How many miss reports to print in full.") var reports = 1
    @Option(help: "The folder of bundled example files (default: ./Examples).") var examples: String?

    func run() throws {
        let clock = ContinuousClock()
        let workload = Workload(trackCount: tracks, seed: seed)
        let stream = workload.stream(count: requests, mix: .realistic, seed: seed &+ 1)
        var engine: ReplayEngine?
        let loading = clock.measure { engine = ReplayEngine(tracks: workload.tracks, strategy: .repeat) }
        guard let engine else { return }
        print("Loaded \(workload.tracks.count) tracks (\(engine.index.distinctKeyCount) distinct keys) in \(loading.milliseconds) ms")
        print("Index overhead: \(engine.index.indexBytes / max(workload.tracks.count, 1)) bytes per track")

        var tally = DemoTally()
        var firstMisses: [MissReport] = []
        for item in stream {
            var result: MatchResult?
            let elapsed = clock.measure { result = engine.match(item.request) }
            guard let result else { continue }
            tally.record(item, result, elapsed: elapsed)
            if let report = result.missReport, firstMisses.count < reports { firstMisses.append(report) }
        }
        tally.printSummary()
        for report in firstMisses {
            print("\n" + report.description)
        }
        try QueueScene.run()
        guard let folder = PetstoreScene.examplesFolder(examples) else {
            throw ValidationError("bundled examples not found: run from the package root or pass --examples PATH")
        }
        try PetstoreScene.run(examples: folder)
        guard tally.wrong == 0 else {
            throw ValidationError("\(tally.wrong) requests got the wrong answer")
        }
    }
}

/// Counts right and wrong answers by request kind.
struct DemoTally {
    var right: [WorkloadRequestKind: Int] = [:]
    var total: [WorkloadRequestKind: Int] = [:]
    var wrong = 0
    var hitTimes: [Duration] = []
    var missTimes: [Duration] = []

    mutating func record(_ item: WorkloadRequest, _ result: MatchResult, elapsed: Duration) {
        total[item.kind, default: 0] += 1
        let correct = item.expectedTrack.map { result.hit?.trackPosition == $0 } ?? (result.hit == nil)
        if correct { right[item.kind, default: 0] += 1 } else { wrong += 1 }
        if result.hit != nil { hitTimes.append(elapsed) } else { missTimes.append(elapsed) }
    }

    func printSummary() {
        let hitTotal = hitTimes.reduce(Duration.zero, +), missTotal = missTimes.reduce(Duration.zero, +)
        print("Replayed \(hitTimes.count + missTimes.count) requests in \((hitTotal + missTotal).milliseconds) ms")
        print("  hits: \(hitTimes.count), \(Int(Double(hitTimes.count) / max(hitTotal.seconds, 1e-9))) per second, "
            + "median \(Self.median(hitTimes)) ns (canonicalise, hash, look up)")
        print("  misses: \(missTimes.count), median \(Self.median(missTimes)) ns each, including the near-miss report")
        for kind in WorkloadRequestKind.allCases {
            let expectation = kind == .nearMiss ? "missed as they should" : "hit the right track"
            print("  \(kind.rawValue): \(right[kind, default: 0])/\(total[kind, default: 0]) \(expectation)")
        }
    }
}

extension DemoTally {
    static func median(_ times: [Duration]) -> Int {
        guard !times.isEmpty else { return 0 }
        return Int(times.sorted()[times.count / 2].seconds * 1e9)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    var milliseconds: String {
        let value = seconds * 1_000
        return value < 10 ? String(Double(Int(value * 100)) / 100) : String(Int(value.rounded()))
    }
}
