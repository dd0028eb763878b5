import ArgumentParser
import Foundation
import Tonearm
import TonearmCassettes
import TonearmWorkloads
import TonearmCommands

/// `tonearm bench`: how fast recordings replay under each strategy, in a few seconds. Replays a generated
/// workload (or every request of the user's own cassette) against an engine per strategy, timing each
/// match, and times a sample against the linear-scan baseline that Vinyl, DVR and Replay use.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure per-match latency of each strategy against a linear-scan baseline.",
        discussion: """
            Without --cassette, generates realistic REST traffic (seeded) and replays hits with permuted \
            queries and reordered JSON bodies, plus near-misses with their reports. With --cassette, replays \
            every recorded request of your cassette, in recorded order, against each strategy. These are \
            quick numbers for choosing a strategy; the Benchmarks package measures precisely.

            With --rules 100,1000,10000,100000, measures rule sets instead: for each count, generated rules \
            of realistic shapes (anchored URL patterns sharing host prefixes, ids in paths, WireMock-style \
            path patterns with alternations, unanchored patterns, priorities) are compiled and indexed, then \
            requests for them (one in ten built to miss) are matched one at a time. The same run times the \
            linear-scan baseline, every rule in turn with Swift Regex as WireMock and OHHTTPStubs match, on \
            the first requests (--baseline-sample), and checks that it answers each with the same rule; a \
            disagreement exits with status 1. The baseline is left out above --naive-limit rules, where it \
            would take minutes, and the output says so.
            """)

    @Option(help: "A cassette, rule file or stub folder to benchmark instead of generated traffic.")
    var cassette: String?
    @Option(help: "Cassette format (detected when absent).") var from: String?
    @Option(help: "How many tracks to generate.") var tracks = 10_000
    @Option(help: "How many requests each strategy replays (generated traffic).") var requests = 20_000
    @Option(help: "How many near-misses to replay with their reports (generated traffic).") var misses = 200
    @Option(name: .customLong("baseline-sample"), help: "How many requests to time against the linear baseline (default 40; 200 with --rules).")
    var baselineSample: Int?
    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "Measure generated rule sets of these sizes against the every-rule-in-turn baseline instead of tracks.",
        valueName: "counts"))
    var ruleCounts: String?
    @Option(name: .customLong("naive-limit"), help: "With --rules: the largest rule count the baseline runs at.")
    var naiveLimit = 10_000
    @Option(help: "The seed of the generated traffic.") var seed: UInt64 = 42
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Flag(help: "With --cassette: report the resident memory loading it for replay takes (Linux), instead of timing matches.")
    var memory = false
    @Flag(name: .customLong("through-urlsession"), help: "With --memory: replay every request of the cassette through a TonearmSession's URLSession and report that process's memory.")
    var throughURLSession = false
    @Option(name: .customLong("save-cassette"), help: "Write the generated tracks to this file as a native cassette instead of benchmarking.")
    var saveCassette: String?

    func validate() throws {
        guard tracks > 0, requests > 0, misses >= 0, (baselineSample ?? 0) >= 0, naiveLimit >= 0 else {
            throw ValidationError("--tracks and --requests must be positive, --misses, --baseline-sample and --naive-limit not negative")
        }
        if ruleCounts != nil { _ = try ruleSizes() }
    }

    /// The sizes `--rules` names: positive counts separated by commas.
    private func ruleSizes() throws -> [Int] {
        let parts = (ruleCounts ?? "").split(separator: ",", omittingEmptySubsequences: false)
        let sizes = parts.compactMap { Int($0.filter { $0 != "_" }.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, sizes.count == parts.count, sizes.allSatisfy({ (1...1_000_000).contains($0) }) else {
            throw ValidationError("--rules takes rule counts from 1 to 1,000,000 separated by commas, e.g. 100,1000,10000; got \"\(ruleCounts ?? "")\"")
        }
        return sizes
    }

    /// `--rules`: the rule workload against the baseline; exits with status 1 when they disagree.
    private func runRules() throws {
        let bench = RuleBench(
            sizes: try ruleSizes(), requests: requests, naiveSample: baselineSample ?? 200, naiveLimit: naiveLimit,
            seed: seed)
        if !json { print(RuleBenchReport.heading(bench)) }
        let report = try bench.run { row in
            if !json { print(RuleBenchReport.line(row)) }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.summary)
        }
        if !report.agrees { throw ExitCode.failure }
    }

    func run() throws {
        if memory {
            guard let cassette else { throw ValidationError("--memory measures a cassette: give --cassette") }
            if throughURLSession {
                #if URLSessionBench
                print(try URLSessionReplayMemory.measure(path: cassette).table)
                return
                #else
                throw ValidationError("""
                    --through-urlsession: this tonearm was built without URLSession (the URLSessionBench trait), \
                    as scripts/package.sh builds the binary it ships; use one built by `swift build -c release --product tonearm`
                    """)
                #endif
            }
            let report = try LoadMemoryReport.measure(path: cassette, format: try CLIFormat.parse(from, option: "--from"))
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.table)
            }
            return
        }
        if ruleCounts != nil {
            try runRules()
            return
        }
        if let saveCassette {
            try NativeFormat.write(Cassette(name: "bench", tracks: Workload(trackCount: tracks, seed: seed).tracks), to: URL(fileURLWithPath: saveCassette))
            return
        }
        let (bench, source) = try makeBench()
        let report = bench.run()
        if json {
            try printJSON(report, source: source)
        } else {
            print(report.table(source: source))
        }
    }

    /// The quick benchmark for the chosen input, and a line saying what it replays.
    private func makeBench() throws -> (QuickBench, String) {
        if let cassette {
            return try Self.cassetteBench(path: cassette, format: try CLIFormat.parse(from, option: "--from"),
                                          baselineSample: baselineSample ?? 40)
        }
        let workload = Workload(trackCount: tracks, seed: seed)
        let requestCount = requests, streamSeed = seed &+ 1
        let bench = QuickBench(
            tracks: workload.tracks,
            hitRequests: { strategy in
                strategy.hitStream(for: workload, count: requestCount, seed: streamSeed).map(\.request)
            },
            missRequests: workload.stream(count: misses, mix: .missesOnly, seed: seed &+ 2).map(\.request),
            rules: try RuleSet(RuleWorkload(ruleCount: 100, seed: seed &+ 3).rules),
            baselineSample: baselineSample ?? 40)
        return (bench, "\(tracks) generated tracks (seed \(seed)); chain = tracks, then 100 regex rules")
    }

    /// A quick benchmark replaying every request recorded in the cassette at `path`, in recorded order,
    /// under each strategy; the cassette's rules, if any, are the chain's second stage.
    static func cassetteBench(path: String, format: CassetteFormat?, baselineSample: Int) throws -> (QuickBench, String) {
        let imported = try CassetteFile.load(URL(fileURLWithPath: path), format: format)
        let tracks = imported.cassette.tracks
        guard !tracks.isEmpty else {
            throw ValidationError("\(path) has no recorded tracks to replay")
        }
        let requests = tracks.map(\.request)
        let rules = imported.rules.isEmpty ? nil : try RuleSet(imported.rules)
        let bench = QuickBench(
            tracks: tracks, hitRequests: { _ in requests }, rules: rules, baselineSample: baselineSample,
            configuration: imported.configuration)
        let chain = rules == nil ? "" : "; chain = tracks, then its \(imported.rules.count) rules"
        return (bench, "\(tracks.count) tracks from \(path)\(chain)")
    }

    private func printJSON(_ report: QuickBenchReport, source: String) throws {
        struct Output: Encodable {
            var source: String
            var report: QuickBenchReport
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(Output(source: source, report: report)), as: UTF8.self))
    }
}
