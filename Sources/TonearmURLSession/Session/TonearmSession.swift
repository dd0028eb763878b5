import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Tonearm
import TonearmCassettes

/// A URLSession that answers from a Tonearm engine: recorded tracks, inline stubs and regex rules, and,
/// in recording modes, the real network.
///
/// Each session has its own `URLProtocol` class, so parallel tests with their own sessions never reach
/// each other's tracks:
/// ```swift
/// let tonearm = try TonearmSession.cassette(at: cassetteURL, options: CassetteOptions(record: .never))
/// let (data, response) = try await tonearm.urlSession.data(from: url)
/// try tonearm.finish()   // saves what was recorded; TonearmTesting calls this for you
/// ```
public final class TonearmSession: Sendable {
    /// The session scoped to the running test by TonearmTesting's traits and `withCassette`.
    @TaskLocal public static var current: TonearmSession?

    /// What the session replays from, for messages: the cassette's path, or a label such as "inline stubs".
    public let source: String
    /// The cassette file recordings are saved to, when there is one.
    public let cassetteURL: URL?
    /// The engine answering requests.
    public let engine: ReplayEngine
    /// What the session does with the network.
    public let mode: RecordMode
    /// What is hidden before recording, and from live requests before matching.
    public let redaction: Redaction
    /// The `URLProtocol` subclass that routes requests to this session; add it to your own
    /// configuration's `protocolClasses`, or use ``makeConfiguration(from:)``.
    public let protocolClass: URLProtocol.Type
    /// A URLSession whose every request goes through this session.
    public let urlSession: URLSession

    let number: UInt64
    let recorder: CassetteRecorder?
    let logger: (@Sendable (LoggedExchange) -> Void)?
    /// Saves after every recorded exchange, for launched processes that may never reach ``finish()``.
    let savesEachRecording: Bool
    private let state = Mutex(State())

    private struct State {
        var misses: [SessionMiss] = []
        /// The misses not yet reported in the task that made the request (see ``RequestingTask``).
        var unreportedMisses: [SessionMiss] = []
        var inTaskMissReporter: (@Sendable (SessionMiss) -> Void)?
        /// A `swift test --filter` argument selecting the test this session serves.
        var testFilter: String?
        var exchanges: [LoggedExchange] = []
        var recordedCount = 0
        var finished = false
    }

    /// A replay-only session over `engine`: nothing reaches the network and misses fail with the report.
    ///
    /// - Parameters:
    ///   - engine: Answers every request.
    ///   - source: Names the engine in miss messages.
    ///   - configuration: The base configuration for ``urlSession``; its protocol classes are kept after
    ///     Tonearm's.
    public convenience init(
        engine: ReplayEngine, source: String = "the stub engine",
        configuration: URLSessionConfiguration = .ephemeral
    ) {
        self.init(
            engine: engine, source: source, mode: .never, cassetteURL: nil, recorder: nil,
            redaction: Redaction(headers: []), logger: nil, configuration: configuration)
    }

    init(
        engine: ReplayEngine, source: String, mode: RecordMode, cassetteURL: URL?, recorder: CassetteRecorder?,
        redaction: Redaction, logger: (@Sendable (LoggedExchange) -> Void)?,
        configuration: URLSessionConfiguration, savesEachRecording: Bool = false
    ) {
        self.savesEachRecording = savesEachRecording
        self.engine = engine
        self.source = source
        self.mode = mode
        self.cassetteURL = cassetteURL
        self.recorder = recorder
        self.redaction = redaction
        self.logger = logger
        number = SessionRegistry.nextNumber()
        protocolClass = SessionTags.protocolClass(for: number)
        urlSession = URLSession(configuration: Self.configuration(configuration, adding: protocolClass))
        SessionRegistry.register(self, number: number)
    }

    /// A copy of `base` whose requests go through this session, for code that builds its own URLSession
    /// (with a delegate, say).
    public func makeConfiguration(from base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        Self.configuration(base, adding: protocolClass)
    }

    private static func configuration(
        _ base: URLSessionConfiguration, adding protocolClass: URLProtocol.Type
    ) -> URLSessionConfiguration {
        let configuration = base.copy() as? URLSessionConfiguration ?? .ephemeral
        configuration.protocolClasses = [protocolClass] + (configuration.protocolClasses ?? [])
        // A cache in front of the protocol would answer repeated GETs itself and hide strategy behaviour.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Requests that found no answer in ``RecordMode/never`` mode, oldest first.
    public var misses: [SessionMiss] {
        state.withLock { $0.misses }
    }

    /// Returns the misses so far and forgets them, for code that expects misses and asserts on them.
    ///
    /// In a Swift Testing trait's scope each miss has already been recorded as an issue where the request
    /// was made (wrap an expected one in `withKnownIssue`); `withCassette` in XCTest reports only the
    /// misses still pending when the test ends, so taking them there absorbs them.
    public func takeMisses() -> [SessionMiss] {
        state.withLock { state in
            defer {
                state.misses.removeAll()
                state.unreportedMisses.removeAll()
            }
            return state.misses
        }
    }

    /// Returns the misses not already reported in the task that made the request, and forgets them:
    /// what a test scope reports when it ends.
    package func takeUnreportedMisses() -> [SessionMiss] {
        state.withLock { state in
            defer { state.unreportedMisses.removeAll() }
            return state.unreportedMisses
        }
    }

    /// Reports each later miss by calling `reporter` in a task that inherits the task-local values of the
    /// task that made the request, before the request fails, when that task can be known; see
    /// ``RequestingTask``. Swift Testing records issues this way so that the test and `withKnownIssue`
    /// see them.
    package func reportMissesInRequestingTask(_ reporter: @escaping @Sendable (SessionMiss) -> Void) {
        state.withLock { $0.inTaskMissReporter = reporter }
    }

    var inTaskMissReporter: (@Sendable (SessionMiss) -> Void)? {
        state.withLock { $0.inTaskMissReporter }
    }

    /// Names the test this session serves, as a `swift test --filter` argument, so a miss says how to
    /// record the missing answer.
    package func describeTest(filter: String) {
        state.withLock { $0.testFilter = filter }
    }

    /// The command that records what a miss lacked, when the session replays a cassette for a known test.
    var howToRecord: String? {
        guard cassetteURL != nil, let filter = state.withLock({ $0.testFilter }) else { return nil }
        return "TONEARM_RECORD=missing swift test --filter \(filter)"
    }

    /// Every request handled so far and where its answer came from.
    public var exchanges: [LoggedExchange] {
        state.withLock { $0.exchanges }
    }

    /// Whether ``finish()`` has run; a finished session fails every request.
    public var isFinished: Bool {
        state.withLock { $0.finished }
    }

    /// Ends the session: it stops answering, and what was recorded is saved to the cassette
    /// atomically, redacted. Calling it again does nothing.
    ///
    /// In ``RecordMode/all`` the cassette is rewritten even when nothing was recorded; in
    /// ``RecordMode/missing`` it is written only when something new was recorded.
    public func finish() throws(TonearmError) {
        let (wasFinished, recorded) = state.withLock { state in
            defer { state.finished = true }
            return (state.finished, state.recordedCount)
        }
        guard !wasFinished else { return }
        SessionRegistry.unregister(number: number)
        if SessionRegistry.globalSession === self { SessionRegistry.setGlobal(nil) }
        urlSession.finishTasksAndInvalidate()
        guard mode == .all || (mode == .missing && recorded > 0) else { return }
        try save()
    }

    /// Writes everything recorded so far to the cassette, atomically; does nothing without a recorder.
    func save() throws(TonearmError) {
        guard let recorder, let cassetteURL else { return }
        do {
            try FileManager.default.createDirectory(
                at: cassetteURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cassette(CassetteError(
                file: cassetteURL.path, expected: "a folder that can be created",
                found: error.localizedDescription))
        }
        do throws(CassetteError) {
            try CassetteFile.save(recorder.cassette, to: cassetteURL, format: CassetteFile.outputFormat(for: cassetteURL))
        } catch {
            throw .cassette(error)
        }
    }

    /// Keeps `miss` for ``misses``; `reportedInRequestingTask` says whether the requesting task will
    /// report it, so the scope's end does not report it again.
    func noteMiss(_ miss: SessionMiss, reportedInRequestingTask: Bool) {
        // The unscoped session lives for the whole process; nobody would ever take its misses.
        guard self !== Self.unscoped else { return }
        state.withLock { state in
            state.misses.append(miss)
            if !reportedInRequestingTask { state.unreportedMisses.append(miss) }
        }
        log(LoggedExchange(request: miss.request, source: .missed, failure: "miss: \(miss.report.reason)"))
    }

    func noteRecorded(_ track: Track) {
        recorder?.record(track)
        state.withLock { $0.recordedCount += 1 }
        if savesEachRecording {
            do throws(TonearmError) {
                try save()
            } catch {
                FileHandle.standardError.write(Data("tonearm: \(error)\n".utf8))
            }
        }
    }

    func log(_ exchange: LoggedExchange) {
        state.withLock { $0.exchanges.append(exchange) }
        logger?(exchange)
    }
}
