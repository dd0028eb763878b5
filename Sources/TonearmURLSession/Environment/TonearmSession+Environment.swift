import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm
import TonearmCassettes

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
        /// Inline stubs as JSON (see the README's "Configuration from the environment").
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
    /// - Throws: ``TonearmError`` when a variable holds something unusable: JSON that does not decode
    ///   (with the coding path and the decoder's reason), an unknown mode or strategy, an unreadable
    ///   cassette or rules file.
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
            let compiled = try StubCompiler.compile(try decodeStubs(json))
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
            return try cassette(
                at: cassetteURL, options: CassetteOptions(strategy: strategy), environment: environment,
                configuration: .ephemeral, extra: (extraTracks, extraRules), savesEachRecording: true)
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

    /// The stubs in `TONEARM_STUBS`, or an error naming where the JSON went wrong.
    static func decodeStubs(_ json: String) throws(TonearmError) -> [Stub] {
        let variable = EnvironmentVariable.stubs
        let document: InlineStubDocument
        do {
            document = try JSONDecoder().decode(InlineStubDocument.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw .environment(variable: variable, detail: describe(error))
        } catch {
            throw .environment(variable: variable, detail: "\(error)")
        }
        return try document.stubs(variable: variable)
    }

    /// `at $[1].status: expected a number (…)`, from a `DecodingError`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            "$" + codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        }
        func underlying(_ context: DecodingError.Context) -> String {
            guard let inner = context.underlyingError else { return context.debugDescription }
            let message = (inner as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(inner)"
            return context.debugDescription + " " + message
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath)): missing member \(key.stringValue.debugDescription)"
        case .dataCorrupted(let context):
            return "at \(path(context.codingPath)): \(underlying(context))"
        @unknown default:
            return "\(error)"
        }
    }
}
