import Foundation
import Synchronization
import Tonearm
import TonearmCassettes
import TonearmURLSession

/// One cassette as the server serves it: its engine, its mode and what was recorded into it.
///
/// Switching cassettes (per test) replaces the whole value; an exchange keeps the cassette it started
/// with, so a switch never sends half an exchange to the wrong file.
final class LoadedCassette: Sendable {
    /// The cassette file, when there is one.
    let url: URL?
    /// What the server does with the network while this cassette is loaded.
    let mode: RecordMode
    /// Answers requests.
    let engine: ServerEngine
    /// The strategy in force, for health and messages.
    let strategyName: String
    /// Hosts of the cassette's tracks, whose schemes replay mode uses for a host in the path.
    let trackHosts: [UpstreamHost]
    private let recorder: CassetteRecorder?
    private let state = Mutex(SaveState())

    private struct SaveState {
        var recordedCount = 0
        var savedCount = 0
    }

    /// Loads `url` (a missing file is an empty cassette) and the rule files.
    init(
        url: URL?, rules ruleFiles: [URL], mode: RecordMode, strategy: StrategyHint?,
        matching: MatchingConfiguration?, redaction: Redaction
    ) throws(ServerError) {
        var imported = CassetteImport(cassette: Cassette())
        if let url, mode.recordsCassette, !["json", "har"].contains(url.pathExtension.lowercased()) {
            throw .readOnlyCassette(file: url.path, format: url.pathExtension.isEmpty ? "stub folder" : url.pathExtension)
        }
        if let url, mode.replaysCassette, FileManager.default.fileExists(atPath: url.path) {
            let format: CassetteFormat
            do throws(CassetteError) {
                format = try CassetteFormat.detect(url)
            } catch {
                throw .cassette(error)
            }
            if mode.recordsCassette, !format.isWritable {
                throw .readOnlyCassette(file: url.path, format: format.name)
            }
            do throws(CassetteError) {
                imported = try CassetteFile.load(url, format: format)
            } catch {
                throw .cassette(error)
            }
        }
        var rules = imported.rules
        // Rule files' exact stubs are tracks, answering after the cassette's own.
        var stubTracks: [Track] = []
        for file in ruleFiles {
            do throws(CassetteError) {
                let stubs = try RuleFileFormat.load(contentsOf: file)
                rules += stubs.rules
                stubTracks += stubs.cassette.tracks
            } catch {
                throw .cassette(error)
            }
        }
        let hint = strategy ?? imported.cassette.strategy ?? .repeat
        do throws(RuleError) {
            engine = try ServerEngine(
                tracks: (mode.replaysCassette ? imported.cassette.tracks : []) + stubTracks, rules: rules, strategy: hint.strategy,
                configuration: matching ?? imported.configuration)
        } catch {
            throw .rule(error)
        }
        self.url = url
        self.mode = mode
        strategyName = hint.rawValue
        var seen = Set<UpstreamHost>()
        trackHosts = imported.cassette.tracks.compactMap { UpstreamHost(ofURL: $0.request.url) }.filter { seen.insert($0).inserted }
        if let url, mode.recordsCassette {
            let startingPoint = mode == .missing
                ? imported.cassette : Cassette(name: imported.cassette.name, strategy: imported.cassette.strategy)
            recorder = CassetteRecorder(url: url, cassette: startingPoint, redaction: redaction)
        } else {
            recorder = nil
        }
    }

    /// Records an exchange fetched from the network, redacted, and lets the engine answer from it.
    func record(_ track: Track) {
        guard let recorder else { return }
        let redacted = recorder.redaction.redact(track)
        recorder.record(redacted)
        // Live requests are redacted before matching, so the engine holds the redacted track too.
        engine.noteRecorded(redacted)
        state.withLock { $0.recordedCount += 1 }
    }

    /// How many exchanges were recorded since loading.
    var recordedCount: Int { state.withLock { $0.recordedCount } }

    /// Writes the recording atomically: in `all` mode always, in `missing` mode when something new was
    /// recorded since the last save. Saves are serialised, so an older snapshot never replaces a newer one.
    func save() throws(ServerError) {
        guard let recorder, let url else { return }
        let result: Result<Void, CassetteError> = state.withLock { state in
            guard mode == .all || state.recordedCount > state.savedCount else { return .success(()) }
            do throws(CassetteError) {
                try Self.createParentFolder(of: url)
                try CassetteFile.save(recorder.cassette, to: url, format: CassetteFile.outputFormat(for: url))
                state.savedCount = state.recordedCount
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        do throws(CassetteError) {
            try result.get()
        } catch {
            throw .cassette(error)
        }
    }
}

extension LoadedCassette {
    fileprivate static func createParentFolder(of url: URL) throws(CassetteError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CassetteError(file: url.path, expected: "a folder that can be created", found: error.localizedDescription)
        }
    }
}

extension RecordMode {
    /// Whether the cassette's tracks answer requests.
    var replaysCassette: Bool { self == .never || self == .missing }
    /// Whether network exchanges are recorded.
    var recordsCassette: Bool { self == .missing || self == .all }
    /// The name `tonearm serve --mode` uses: `replay` for ``RecordMode/never``.
    public var serverName: String { self == .never ? "replay" : rawValue }

    /// The mode named `name` on the server's command line and control API (`replay` or `never`, `missing`,
    /// `all`, `passthrough`).
    public init?(serverName name: String) {
        if name.lowercased() == "replay" { self = .never } else { self.init(rawValue: name.lowercased()) }
    }
}
