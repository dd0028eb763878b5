import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmCassettes
import TonearmReplay

extension TonearmSession {
    /// The environment variables ``installFromEnvironment(_:)`` reads.
    public enum EnvironmentVariable {
        /// Path of the cassette file to replay and record.
        public static let cassette = "TONEARM_CASSETTE"
        /// Folder of cassettes; with ``testName`` names the file `<folder>/<testName>.json`.
        public static let cassetteFolder = "TONEARM_CASSETTE_DIR"
        /// The test's name, the cassette's file name in ``cassetteFolder``.
        public static let testName = "TONEARM_TEST_NAME"
        /// The record mode (``RecordMode``): never, missing, all or passthrough.
        public static let record = RecordMode.environmentVariable
        /// The strategy for the cassette's tracks: repeat, fifo, uniquePlay or strictOrder.
        public static let strategy = "TONEARM_STRATEGY"
        /// Path of a rule file (JSON, YAML or property list), or of any cassette Tonearm reads.
        public static let rules = "TONEARM_RULES"
        /// Inline stubs as JSON in the stub schema (docs/cassette-format.md, "Stub schema").
        public static let stubs = "TONEARM_STUBS"

        /// Every variable, in the order they are documented.
        public static let all = [cassette, cassetteFolder, testName, record, strategy, rules, stubs]
    }

    /// Sets up stubbing for a launched process (an app under UI test, a CLI under integration test) from
    /// environment variables its test runner set, and installs it globally.
    ///
    /// Does nothing and returns `nil` when none of ``EnvironmentVariable/all`` is set, so it is safe to
    /// leave in a debug build. The session is installed with ``installGlobally()``: on Apple platforms
    /// `URLSession.shared` goes through it; everywhere, sessions built from
    /// ``globalConfiguration(from:)`` (or the returned session's ``urlSession``) do. Recordings are saved
    /// after every recorded exchange, since a launched process may be killed rather than end cleanly.
    ///
    /// - Throws: ``TonearmError`` when a variable holds something unusable: stubs that do not decode
    ///   (with line:column, the JSON path, and what was expected and found), an unknown mode or
    ///   strategy, an unreadable cassette or rules file.
    @discardableResult
    public static func installFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TonearmError) -> TonearmSession? {
        guard let session = try fromEnvironment(environment) else { return nil }
        session.installGlobally()
        return session
    }

    /// The session the environment describes, without installing it; `nil` when no variable is set.
    public static func fromEnvironment(_ environment: [String: String]) throws(TonearmError) -> TonearmSession? {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard EnvironmentVariable.all.contains(where: { value($0) != nil }) else { return nil }

        var extraTracks: [Track] = [], extraRules: [Rule] = []
        if let path = value(EnvironmentVariable.rules) {
            do throws(CassetteError) {
                let imported = try CassetteFile.load(URL(fileURLWithPath: path))
                extraTracks += imported.cassette.tracks
                extraRules += imported.rules
            } catch {
                throw .cassette(error)
            }
        }
        if let json = value(EnvironmentVariable.stubs) {
            let compiled = try InlineStubDocument.decode(json, variable: EnvironmentVariable.stubs)
            extraTracks += compiled.tracks
            extraRules += compiled.rules
        }
        var strategy: Strategy?
        if let name = value(EnvironmentVariable.strategy) {
            guard let hint = StrategyHint(rawValue: name) else { throw .invalidStrategy(name) }
            strategy = hint.strategy
        }

        let cassetteURL: URL? = if let path = value(EnvironmentVariable.cassette) {
            URL(fileURLWithPath: path)
        } else if let folder = value(EnvironmentVariable.cassetteFolder), let test = value(EnvironmentVariable.testName) {
            URL(fileURLWithPath: folder).appendingPathComponent(test + ".json")
        } else {
            nil
        }
        if let cassetteURL {
            return TonearmSession(replaying: try ReplaySession.cassette(
                at: cassetteURL, options: CassetteOptions(strategy: strategy), environment: environment,
                extra: (extraTracks, extraRules), savesEachRecording: true))
        }
        let engine: ReplayEngine
        do throws(RuleError) {
            engine = try ReplayEngine(
                tracks: extraTracks, rules: extraRules, strategy: strategy ?? .fifo(whenExhausted: .repeatLast),
                configuration: StubCompiler.configuration)
        } catch {
            throw .rule(error)
        }
        return TonearmSession(engine: engine, source: "stubs from the environment")
    }
}
