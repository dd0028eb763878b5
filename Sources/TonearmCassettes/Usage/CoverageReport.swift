import Foundation
import Tonearm

/// Which recordings a test run never used: cassette files no process loaded, tracks never replayed,
/// rules (and WireMock mappings read as rules) that never answered, per file.
///
/// Made from a run's merged usage records (``UsageRun``) and the cassette folders, by ``init(run:cassettes:)``.
/// Each loaded file is read again, so the report can name its unused tracks and notice a file that
/// changed since the run.
public struct CoverageReport: Sendable, Hashable {
    /// One track or rule nothing answered from.
    public struct UnusedEntry: Sendable, Hashable {
        /// Its place in the file's tracks (or rules), 0-based.
        public var position: Int
        /// `GET https://api.example.com/items → 200` for a track, the rule's name and pattern for a rule.
        public var summary: String
    }

    /// What the run did with one cassette file.
    public struct FileCoverage: Sendable, Hashable {
        /// The file, by standard path.
        public var path: String
        /// Whether any process loaded it.
        public var loaded: Bool
        /// How many times it was loaded, over every process.
        public var loads: Int
        /// Its tracks and rules now (for a loaded file; 0 for one never loaded, which is not read).
        public var trackCount: Int
        /// See ``trackCount``.
        public var ruleCount: Int
        /// Tracks no request was answered from.
        public var unusedTracks: [UnusedEntry]
        /// Rules no request was answered from.
        public var unusedRules: [UnusedEntry]
        /// Why the run's counts cannot be matched to its tracks (it changed during or since the run),
        /// when they cannot; its tracks are then not reported one by one.
        public var changed: String?

        /// Whether the file, or something in it, went unused.
        public var hasUnused: Bool { !loaded || !unusedTracks.isEmpty || !unusedRules.isEmpty }
    }

    /// Every cassette under the folders, in path order.
    public var files: [FileCoverage]
    /// Files in the folders that no format reads (left out of ``files``), by standard path.
    public var notCassettes: [String]
    /// How many usage records the run left.
    public var recordCount: Int

    /// Whether anything went unused: a file never loaded, or a track or rule never answering.
    public var hasUnused: Bool { files.contains(where: \.hasUnused) }

    /// The coverage of the cassettes under `cassettes` (folders or files) by `run`.
    ///
    /// - Throws: ``CassetteError`` naming a loaded file that no longer parses, or a folder that cannot be read.
    public init(run: UsageRun, cassettes roots: [URL]) throws(CassetteError) {
        let loadedPaths = Set(run.files.keys).union(run.changedDuringRun.keys)
        let paths = try CassetteFolderScan.cassettes(under: roots, loadedFolders: loadedPaths)
        var files: [FileCoverage] = []
        var notCassettes: [String] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            guard loadedPaths.contains(path) else {
                // A file never loaded is only probed: is it a cassette at all?
                if (try? CassetteFormat.detect(url)) != nil {
                    files.append(FileCoverage(path: path, loaded: false, loads: 0, trackCount: 0, ruleCount: 0, unusedTracks: [], unusedRules: []))
                } else {
                    notCassettes.append(path)
                }
                continue
            }
            files.append(try Self.coverage(of: url, path: path, in: run))
        }
        self.files = files
        self.notCassettes = notCassettes
        recordCount = run.recordCount
    }

    /// The coverage of a loaded file, read again now.
    private static func coverage(of url: URL, path: String, in run: UsageRun) throws(CassetteError) -> FileCoverage {
        let imported = try CassetteFile.load(url)
        let tracks = imported.cassette.entries.map(\.track), rules = imported.rules
        var coverage = FileCoverage(
            path: path, loaded: true, loads: 0, trackCount: tracks.count, ruleCount: rules.count, unusedTracks: [], unusedRules: [])
        guard let usage = run.files[path] else {
            let shapes = (run.changedDuringRun[path] ?? []).map { "\($0.trackPlays.count) tracks and \($0.rulePlays.count) rules" }
            coverage.loads = (run.changedDuringRun[path] ?? []).reduce(0) { $0 &+ $1.loads }
            coverage.changed = "it changed during the run: processes loaded it with " + shapes.joined(separator: ", then ")
            return coverage
        }
        coverage.loads = usage.loads
        guard usage.trackPlays.count == tracks.count, usage.rulePlays.count == rules.count else {
            coverage.changed = "it changed since the run: loaded with \(usage.trackPlays.count) tracks and \(usage.rulePlays.count) rules, "
                + "it has \(tracks.count) and \(rules.count) now"
            return coverage
        }
        coverage.unusedTracks = tracks.indices.filter { usage.trackPlays[$0] == 0 }.map { UnusedEntry(position: $0, summary: summary(of: tracks[$0])) }
        coverage.unusedRules = rules.indices.filter { usage.rulePlays[$0] == 0 }.map { UnusedEntry(position: $0, summary: summary(of: rules[$0])) }
        return coverage
    }

    /// `GET https://api.example.com/items → 200`.
    static func summary(of track: Track) -> String {
        let outcome = switch track.outcome {
        case .response(let response): String(response.status)
        case .transportError(let error): "\(error)"
        }
        return "\(track.request.method) \(track.request.url) → \(outcome)"
    }

    /// `rule "users": GET path ~ ^/users/[0-9]+$`.
    static func summary(of rule: Rule) -> String {
        let name = rule.name.isEmpty ? "rule" : "rule \"\(rule.name)\""
        return "\(name): \(rule.method.map { $0 + " " } ?? "")\(rule.target) ~ \(rule.pattern)"
    }
}
