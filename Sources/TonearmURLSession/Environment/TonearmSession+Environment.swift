import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmCassettes
import TonearmReplay

extension TonearmSession {
    /// The environment variables ``installFromEnvironment(_:arguments:)`` reads. Each can also be given
    /// as a launch argument pair, `-TONEARM_CASSETTE path`, which wins over the environment.
    public enum EnvironmentVariable {
        /// Path of the cassette file to replay and record.
        public static let cassette = "TONEARM_CASSETTE"
        /// Folder of cassettes; with ``testName`` names the file `<folder>/<testName>.json`.
        public static let cassetteFolder = "TONEARM_CASSETTE_DIR"
        /// The test's name, the cassette's file name in ``cassetteFolder``.
        public static let testName = "TONEARM_TEST_NAME"
        /// The record mode (`RecordMode`): never, missing, all or passthrough.
        public static let record = RecordMode.environmentVariable
        /// The strategy for the cassette's tracks: repeat, fifo, uniquePlay or strictOrder.
        public static let strategy = "TONEARM_STRATEGY"
        /// Path of a rule file (JSON, YAML or property list), a stub bundle, a per-test stub folder, or
        /// any cassette Tonearm reads.
        public static let rules = "TONEARM_RULES"
        /// Inline stubs as JSON in the stub schema (docs/cassette-format.md, "Stub schema").
        public static let stubs = "TONEARM_STUBS"
        /// `1` (or `true`, `yes`): every other variable whose name is an `http`/`https` URL and whose
        /// value is JSON answers GET requests for that URL with 200 and that JSON body.
        public static let urlStubs = "TONEARM_URL_STUBS"
        /// The folder `STUB_API_CALLS_<name>` launch arguments find `<name>.bundle` in; the app's
        /// resources (`Bundle.main.resourceURL`) when unset. Setting it alone installs nothing.
        public static let stubBundles = "TONEARM_STUB_BUNDLES"
        /// What happens to a request no stub answers when there is no cassette: `fail` (the default;
        /// it fails with the miss report) or `network` (it goes to the network, unrecorded).
        public static let misses = "TONEARM_MISSES"
        /// A folder for usage records (`TonearmCassettes/UsageRecord`): a finished session leaves one
        /// there saying which of its files' tracks and rules answered, for `tonearm coverage`. Setting
        /// it alone installs nothing.
        public static let usage = UsageRecord.environmentVariable
        /// How a replayed stream is delivered (`TonearmReplay/ReplaySession/streamPacing`): `recorded`,
        /// `off`, or a factor such as `0.5`. Setting it alone installs nothing.
        public static let streamPacing = ReplaySession.streamPacingVariable

        /// Every variable, in the order they are documented.
        public static let all = [cassette, cassetteFolder, testName, record, strategy, rules, stubs, urlStubs, stubBundles, misses, usage, streamPacing]
    }

    /// Sets up stubbing for a launched process (an app under UI test, a CLI under integration test) from
    /// the environment variables and launch arguments its test runner set (`launchEnvironment`,
    /// `launchArguments`), and installs it globally.
    ///
    /// Besides ``EnvironmentVariable/all`` it reads the launch arguments `STUB_API_CALLS_<name>`, which
    /// answer from the stub bundle `<name>.bundle` (`StubBundleFormat`), and `-TONEARM_… value` pairs,
    /// which set that variable and win over the environment. Does nothing and returns `nil` when none of
    /// them is given, so it is safe to leave in a debug build. The session is installed with
    /// ``installGlobally()``: on Apple platforms `URLSession.shared` goes through it; everywhere,
    /// sessions built from ``globalConfiguration(from:)`` (or the returned session's ``urlSession``) do.
    /// Recordings are saved after every recorded exchange, since a launched process may be killed rather
    /// than end cleanly.
    ///
    /// - Throws: `TonearmError` when a variable or argument holds something unusable: stubs that do
    ///   not decode (with line:column, the JSON path, and what was expected and found), an unknown mode
    ///   or strategy, an unreadable cassette, rules file or stub bundle, a URL-keyed value that is not JSON.
    @discardableResult
    public static func installFromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        arguments: [String] = ProcessInfo.processInfo.arguments
    ) throws(TonearmError) -> TonearmSession? {
        guard let session = try fromEnvironment(environment, arguments: arguments) else { return nil }
        session.installGlobally()
        return session
    }

    /// The session the environment and launch arguments describe, without installing it; `nil` when
    /// none of them is given.
    public static func fromEnvironment(
        _ environment: [String: String], arguments: [String] = []
    ) throws(TonearmError) -> TonearmSession? {
        let launch = try LaunchArguments(arguments)
        let environment = environment.merging(launch.variables) { _, argument in argument }
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let activating = EnvironmentVariable.all.filter {
            ![EnvironmentVariable.stubBundles, EnvironmentVariable.usage, EnvironmentVariable.streamPacing].contains($0)
        }
        guard activating.contains(where: { value($0) != nil }) || !launch.stubBundles.isEmpty else { return nil }

        var extraTracks: [Track] = [], extraRules: [Rule] = []
        // The rule file's tracks and rules come first among the extra ones.
        var extraSources: [UsageSource] = []
        if let path = value(EnvironmentVariable.rules) {
            do throws(CassetteError) {
                let url = URL(fileURLWithPath: path)
                let imported = try CassetteFile.load(url)
                extraSources.append(UsageSource(url: url, tracks: 0..<imported.cassette.entries.count, rules: 0..<imported.rules.count))
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
        for bundle in launch.stubBundles {
            extraRules += try StubBundleSearch.rules(ofBundle: bundle, environment: environment)
        }
        if let flag = value(EnvironmentVariable.urlStubs) {
            guard ["1", "true", "yes"].contains(flag.lowercased()) else {
                throw .environment(variable: EnvironmentVariable.urlStubs, detail: "expected 1 to turn URL-keyed stubs on, found \(flag.debugDescription)")
            }
            extraTracks += try URLKeyedStubs.tracks(from: environment)
        }
        var strategy: Strategy?
        if let name = value(EnvironmentVariable.strategy) {
            guard let hint = StrategyHint(rawValue: name) else { throw .invalidStrategy(name) }
            strategy = hint.strategy
        }
        var streamPacing = StreamPacing.recorded
        if let text = value(EnvironmentVariable.streamPacing) {
            guard let pacing = StreamPacing(text) else {
                throw .environment(
                    variable: EnvironmentVariable.streamPacing, detail: "expected recorded, off, or a factor from 0 to 1000 such as 0.5, found \(text.debugDescription)")
            }
            streamPacing = pacing
        }
        let missesReachNetwork: Bool
        switch value(EnvironmentVariable.misses)?.lowercased() {
        case nil, "fail": missesReachNetwork = false
        case "network": missesReachNetwork = true
        case let other?:
            throw .environment(variable: EnvironmentVariable.misses, detail: "expected fail or network, found \(other.debugDescription)")
        }

        let cassetteURL: URL? = if let path = value(EnvironmentVariable.cassette) {
            URL(fileURLWithPath: path)
        } else if let folder = value(EnvironmentVariable.cassetteFolder), let test = value(EnvironmentVariable.testName) {
            URL(fileURLWithPath: folder).appendingPathComponent(test + ".json")
        } else {
            nil
        }
        if let cassetteURL {
            guard !missesReachNetwork else {
                throw .environment(
                    variable: EnvironmentVariable.misses,
                    detail: "network applies to stubs without a cassette; with a cassette, set \(EnvironmentVariable.record)=missing or passthrough")
            }
            let replay = try ReplaySession.cassette(
                at: cassetteURL, options: CassetteOptions(strategy: strategy), environment: environment,
                extra: (extraTracks, extraRules), savesEachRecording: true, extraSources: extraSources)
            replay.streamPacing = streamPacing
            return TonearmSession(replaying: replay)
        }
        let engine: ReplayEngine
        do throws(RuleError) {
            engine = try ReplayEngine(
                tracks: extraTracks, rules: extraRules, strategy: strategy ?? .fifo(whenExhausted: .repeatLast),
                configuration: StubCompiler.configuration)
        } catch {
            throw .rule(error)
        }
        let replay = ReplaySession(
            engine: engine, source: "stubs from the environment", mode: .never, cassetteURL: nil, recorder: nil,
            redaction: Redaction(headers: []), logger: nil, missesReachNetwork: missesReachNetwork,
            usageLog: UsageLog.fromEnvironment(environment, sources: extraSources))
        replay.streamPacing = streamPacing
        return TonearmSession(replaying: replay)
    }
}
