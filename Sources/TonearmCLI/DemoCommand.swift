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
    @Option(help: "How many miss reports to print in full.") var reports = 2

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
        let replay = clock.measure {
            for item in stream {
                let result = engine.match(item.request)
                tally.record(item, result)
                if let report = result.missReport, firstMisses.count < reports { firstMisses.append(report) }
            }
        }
        tally.printSummary(requests: stream.count, elapsed: replay)
        for report in firstMisses {
            print("\n" + report.description)
        }
        try QueueScene.run()
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

    mutating func record(_ item: WorkloadRequest, _ result: MatchResult) {
        total[item.kind, default: 0] += 1
        let correct = item.expectedTrack.map { result.hit?.trackPosition == $0 } ?? (result.hit == nil)
        if correct { right[item.kind, default: 0] += 1 } else { wrong += 1 }
    }

    func printSummary(requests: Int, elapsed: Duration) {
        print("Replayed \(requests) requests in \(elapsed.milliseconds) ms: "
            + "\(Int(Double(requests) / max(elapsed.seconds, 1e-9))) requests/s, "
            + "\(Int(elapsed.seconds * 1e9 / Double(max(requests, 1)))) ns per request on average")
        for kind in WorkloadRequestKind.allCases {
            let expectation = kind == .nearMiss ? "missed as they should" : "hit the right track"
            print("  \(kind.rawValue): \(right[kind, default: 0])/\(total[kind, default: 0]) \(expectation)")
        }
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
