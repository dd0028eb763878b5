import Foundation
import Tonearm
import TonearmCassettes
import TonearmReplay

/// One cassette as the server serves it: the replay session deciding each request (the same one
/// URLSession and AsyncHTTPClient use), what the journal says answered, and the cassette's hosts.
///
/// Switching cassettes (per test) replaces the whole value; an exchange keeps the cassette it started
/// with, so a switch never sends half an exchange to the wrong file.
final class LoadedCassette: Sendable {
    /// The cassette file, when there is one.
    let url: URL?
    /// Replays, records and saves.
    let session: ReplaySession
    /// Names what answered, and takes stubs at runtime.
    let engine: CassetteEngine
    /// The strategy in force, for health and messages.
    let strategyName: String
    /// Hosts of the cassette's tracks, whose schemes replay mode uses for a host in the path.
    let trackHosts: [UpstreamHost]
    /// Its tracks' and rules' answers, encoded once for the common request.
    let encodedResponses: EncodedResponseCache
    /// When it was loaded: a journal entry from before answered from another cassette's engine.
    let loadedAt = Date()

    /// What the server does with the network while this cassette is loaded.
    var mode: RecordMode { session.mode }

    /// Loads `url` (a missing file is an empty cassette) and the rule files, whose stubs answer after
    /// the cassette's tracks and rules.
    init(
        url: URL?, rules ruleFiles: [URL], mode: RecordMode, strategy: StrategyHint?,
        matching: MatchingConfiguration?, redaction: Redaction, usageFolder: URL? = nil
    ) throws(ServerError) {
        if let url, mode.recordsCassette { try Self.checkWritable(url) }
        var ruleFileRules: [Rule] = []
        var ruleFileTracks: [Track] = []
        // Each rule file's tracks and rules, by position among the rule files' (they follow the cassette's).
        var ruleFileSources: [UsageSource] = []
        for file in ruleFiles {
            do throws(CassetteError) {
                let stubs = try RuleFileFormat.load(contentsOf: file)
                ruleFileSources.append(UsageSource(
                    url: file, tracks: ruleFileTracks.count..<(ruleFileTracks.count + stubs.cassette.entries.count),
                    rules: ruleFileRules.count..<(ruleFileRules.count + stubs.rules.count)))
                ruleFileRules += stubs.rules
                ruleFileTracks += stubs.cassette.tracks
            } catch {
                throw .cassette(error)
            }
        }
        if let url {
            do throws(TonearmError) {
                // The command line decides the mode: TONEARM_RECORD and CI are for test processes.
                session = try ReplaySession.cassette(
                    at: url,
                    options: CassetteOptions(configuration: matching, strategy: strategy?.strategy, record: mode, redaction: redaction),
                    environment: [:], extra: (ruleFileTracks, ruleFileRules), extraSources: ruleFileSources,
                    usageLog: usageFolder.map { UsageLog(folder: $0, writer: "tonearm serve", sources: []) })
            } catch {
                throw ServerError(loading: error)
            }
        } else {
            // No file: the rule files alone answer, and nothing is recorded whatever the mode.
            let engine: ReplayEngine
            do throws(RuleError) {
                engine = try ReplayEngine(
                    tracks: ruleFileTracks, rules: ruleFileRules, strategy: (strategy ?? .repeat).strategy,
                    configuration: matching ?? .default)
            } catch {
                throw .rule(error)
            }
            session = ReplaySession(
                engine: engine, source: "the loaded rules", mode: mode, cassetteURL: nil, recorder: nil,
                redaction: redaction, logger: nil, keepsMisses: false,
                usageLog: usageFolder.map { UsageLog(folder: $0, writer: "tonearm serve", sources: ruleFileSources) })
        }
        self.url = url
        engine = CassetteEngine(session.engine)
        encodedResponses = EncodedResponseCache(trackCount: engine.loadedTrackCount, ruleCount: engine.fileRuleCount)
        strategyName = (strategy ?? session.cassetteStrategy ?? .repeat).rawValue
        trackHosts = Self.hosts(of: session.engine.index, before: engine.loadedTrackCount - ruleFileTracks.count)
    }

    /// Refuses to record into a file whose format Tonearm does not write.
    private static func checkWritable(_ url: URL) throws(ServerError) {
        guard ["json", "har"].contains(url.pathExtension.lowercased()) else {
            throw .readOnlyCassette(file: url.path, format: url.pathExtension.isEmpty ? "stub folder" : url.pathExtension)
        }
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let format: CassetteFormat
        do throws(CassetteError) {
            format = try CassetteFormat.detect(url)
        } catch {
            throw .cassette(error)
        }
        if !format.isWritable { throw .readOnlyCassette(file: url.path, format: format.name) }
    }

    /// The distinct hosts of the tracks at positions before `end`, in order of first appearance.
    private static func hosts(of index: TrackIndex, before end: Int) -> [UpstreamHost] {
        var seenOrigins = Set<Substring>()
        var hosts: [UpstreamHost] = []
        for position in 0..<max(0, end) {
            guard let url = index.track(at: position)?.request.url else { continue }
            // Most tracks share a few origins: compare the origin's text before parsing it.
            let origin = Self.origin(of: url)
            guard seenOrigins.insert(origin).inserted, let host = UpstreamHost(ofURL: String(origin)) else { continue }
            if !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }

    /// `scheme://authority` of an absolute URL, or the whole text when it has no `://`.
    private static func origin(of url: String) -> Substring {
        guard let separator = url.range(of: "://") else { return Substring(url) }
        let end = url[separator.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        return url[..<end]
    }

    /// Leaves the usage record of what answered since loading, when the server keeps them.
    func writeUsageRecord() throws(ServerError) {
        do throws(TonearmError) {
            try session.writeUsageRecord()
        } catch {
            throw ServerError(loading: error)
        }
    }

    /// How many exchanges were recorded since loading.
    var recordedCount: Int { session.recordedCount }

    /// Writes the recording atomically when something new was recorded since the last save (never an
    /// empty recording over a cassette loaded in `all` mode). Saves are serialised, so an older snapshot never replaces a newer one.
    func save() throws(ServerError) {
        do throws(TonearmError) {
            try session.saveRecording()
        } catch {
            throw ServerError(loading: error)
        }
    }
}

extension RecordMode {
    /// Whether network exchanges are recorded.
    var recordsCassette: Bool { self == .missing || self == .all }
    /// The name `tonearm serve --mode` uses: `replay` for ``RecordMode/never``.
    package var serverName: String { self == .never ? "replay" : rawValue }

    /// The mode named `name` on the server's command line and control API (`replay` or `never`, `missing`,
    /// `all`, `passthrough`).
    package init?(serverName name: String) {
        if name.lowercased() == "replay" { self = .never } else { self.init(rawValue: name.lowercased()) }
    }
}
