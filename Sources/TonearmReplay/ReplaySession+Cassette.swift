import Foundation
import Tonearm
import TonearmCassettes

extension ReplaySession {
    /// A session replaying and recording the cassette at `url` (native JSON, or any format Tonearm
    /// reads; recordings are saved as native JSON, or HAR for a `.har` file).
    ///
    /// The cassette is read only when the mode replays; a file that does not exist yet is an empty
    /// cassette. In ``RecordMode/all`` and ``RecordMode/passthrough`` the file is not read at all, so a
    /// broken cassette can be re-recorded.
    ///
    /// - Parameters:
    ///   - url: The cassette file.
    ///   - options: Matching, strategy, record mode and redaction.
    ///   - environment: Where `TONEARM_RECORD` and `CI` are read; the process environment by default.
    /// - Throws: ``TonearmError/cassette(_:)`` naming the file, line and column when the cassette does
    ///   not parse; ``TonearmError/invalidRecordMode(_:)`` for a bad `TONEARM_RECORD`.
    public static func cassette(
        at url: URL, options: CassetteOptions = CassetteOptions(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TonearmError) -> ReplaySession {
        try cassette(at: url, options: options, environment: environment, extra: nil)
    }

    /// The cassette session, with `extra` tracks and rules (from the environment) answering after the
    /// cassette's own; `extraSources` name the files they came from, by positions among the extra ones.
    /// The session's usage record goes to `usageLog`'s folder, else to `TONEARM_USAGE_DIR` when set.
    package static func cassette(
        at url: URL, options: CassetteOptions, environment: [String: String],
        extra: (tracks: [Track], rules: [Rule])?, savesEachRecording: Bool = false, extraSources: [UsageSource] = [],
        usageLog: UsageLog? = nil
    ) throws(TonearmError) -> ReplaySession {
        let mode = try RecordMode.resolve(requested: options.record, environment: environment)
        let strategy = options.strategy
        var imported = CassetteImport(cassette: Cassette())
        var loaded: ReplayEngine?
        if mode.replays, FileManager.default.fileExists(atPath: url.path) {
            do throws(CassetteError) {
                if mode == .missing {
                    // Recording keeps every entry, to write them back with the new ones.
                    imported = try CassetteFile.load(url)
                } else {
                    (loaded, imported) = try CassetteFile.loadEngine(url, strategy: strategy, configuration: options.configuration)
                }
            } catch {
                throw .cassette(error)
            }
        }
        let engine: ReplayEngine
        do throws(RuleError) {
            if let loaded {
                // Loaded track by track: the extra tracks and every rule follow, as the initialiser
                // below would order them.
                for track in extra?.tracks ?? [] { loaded.add(track) }
                for rule in imported.rules + (extra?.rules ?? []) { try loaded.add(rule) }
                engine = loaded
            } else {
                engine = try ReplayEngine(
                    tracks: imported.cassette.tracks + (extra?.tracks ?? []), rules: imported.rules + (extra?.rules ?? []),
                    strategy: strategy ?? imported.cassette.strategy?.strategy ?? .repeat,
                    configuration: options.configuration ?? imported.configuration)
            }
        } catch {
            throw .rule(error)
        }
        let redaction = options.redaction ?? .default
        let startingPoint = mode == .missing
            ? imported.cassette : Cassette(name: imported.cassette.name, strategy: imported.cassette.strategy)
        let recorder = mode.records ? CassetteRecorder(url: url, cassette: startingPoint, redaction: redaction) : nil
        let logger: (@Sendable (LoggedExchange) -> Void)? = mode == .passthrough ? Self.standardErrorLogger : nil
        // The cassette's tracks and rules come first in the engine, in file order; the extra ones follow.
        let cassetteTracks = engine.index.positionCount - (extra?.tracks.count ?? 0), cassetteRules = imported.rules.count
        var sources = mode.replays && FileManager.default.fileExists(atPath: url.path)
            ? [UsageSource(url: url, tracks: 0..<cassetteTracks, rules: 0..<cassetteRules)] : []
        sources += extraSources.map { $0.shifted(tracksBy: cassetteTracks, rulesBy: cassetteRules) }
        let usage = usageLog.map { UsageLog(folder: $0.folder, writer: $0.writer, sources: sources) }
            ?? UsageLog.fromEnvironment(environment, sources: sources)
        let session = ReplaySession(
            engine: engine, source: "cassette \(url.path)", mode: mode, cassetteURL: url, recorder: recorder,
            redaction: redaction, logger: logger, savesEachRecording: savesEachRecording,
            cassetteStrategy: imported.cassette.strategy, usageLog: usage)
        if let pacing = options.streamPacing ?? environment[streamPacingVariable].flatMap(StreamPacing.init) {
            session.streamPacing = pacing
        }
        return session
    }

    /// Passthrough mode's log: one line per exchange on standard error, where test runners show it.
    static let standardErrorLogger: @Sendable (LoggedExchange) -> Void = { exchange in
        StandardStream.error.writeLine("tonearm passthrough: \(exchange)")
    }
}
