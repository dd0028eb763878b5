import Foundation
import Synchronization
import Tonearm
import TonearmCassettes

/// The transport-independent half of a Tonearm session: the engine, the record mode, what was recorded,
/// the misses and the log, and the one decision every bridge makes for a request (replay it, report a
/// miss, or send it to the network and record the answer).
///
/// Bridges own the transport: URLSession's `TonearmSession`, AsyncHTTPClient's `TonearmHTTPClient` and
/// the OpenAPI `TonearmClientTransport` turn their requests into a `Tonearm/Request`, call
/// ``respond(to:network:)`` with a closure that performs one real exchange, and turn the answer (or a
/// ``ReplayFailure``) back into their own types. TonearmTesting's `.cassette` and `.stubs` traits bind
/// ``current`` for the test, so every bridge in the test answers from the same cassette.
public final class ReplaySession: Sendable {
    /// The session scoped to the running test by TonearmTesting's traits and `withCassette`.
    @TaskLocal public static var current: ReplaySession?

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

    /// The strategy the cassette file names, if it names one: what answers when the options name none.
    package let cassetteStrategy: StrategyHint?

    private let recorder: CassetteRecorder?
    private let logger: (@Sendable (LoggedExchange) -> Void)?
    /// Saves after every recorded exchange, for launched processes that may never reach ``finish()``.
    private let savesEachRecording: Bool
    /// Whether misses are kept for someone to take; the unscoped session lives for the whole process
    /// and nobody would ever take its misses.
    private let keepsMisses: Bool
    /// Sends requests the engine cannot answer to the network, unrecorded, instead of failing them
    /// (`TONEARM_MISSES=network` for stubs without a cassette; ``mode`` stays ``RecordMode/never``, as
    /// nothing is recorded).
    private let missesReachNetwork: Bool
    /// Where the usage record goes when the session finishes, when one is wanted.
    private let usageLog: UsageLog?
    private let state = Mutex(State())
    /// How many recordings the cassette file holds; saving holds this lock.
    private let saving = Mutex(0)
    /// Identical requests being recorded, for the others to wait for.
    private let recordingsInFlight = RecordingsInFlight()

    private struct State {
        var misses: [SessionMiss] = []
        /// The misses not reported in the task that made the request, for the scope's end to report.
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
    public convenience init(engine: ReplayEngine, source: String = "the stub engine") {
        self.init(
            engine: engine, source: source, mode: .never, cassetteURL: nil, recorder: nil,
            redaction: Redaction(headers: []), logger: nil)
    }

    /// How a replayed track's recorded stream (``Track/pacing``) is delivered: as recorded (the
    /// default, or `TONEARM_STREAM_PACING` when it names one: `recorded`, `off`, a factor such as `0.5`),
    /// scaled, or at once. Bridges that deliver bodies in parts (URLSession, AsyncHTTPClient) follow it.
    public var streamPacing: StreamPacing {
        get { pacing.withLock { $0 } }
        set { pacing.withLock { $0 = newValue } }
    }

    /// The environment variable that sets ``streamPacing`` for every session.
    public static let streamPacingVariable = "TONEARM_STREAM_PACING"

    private let pacing = Mutex(
        ProcessInfo.processInfo.environment[ReplaySession.streamPacingVariable].flatMap(StreamPacing.init) ?? .recorded)

    package init(
        engine: ReplayEngine, source: String, mode: RecordMode, cassetteURL: URL?, recorder: CassetteRecorder?,
        redaction: Redaction, logger: (@Sendable (LoggedExchange) -> Void)?, savesEachRecording: Bool = false,
        keepsMisses: Bool = true, missesReachNetwork: Bool = false, cassetteStrategy: StrategyHint? = nil,
        usageLog: UsageLog? = nil
    ) {
        self.cassetteStrategy = cassetteStrategy
        self.usageLog = usageLog
        self.engine = engine
        self.source = source
        self.mode = mode
        self.cassetteURL = cassetteURL
        self.recorder = recorder
        self.redaction = redaction
        self.logger = logger
        self.savesEachRecording = savesEachRecording
        self.keepsMisses = keepsMisses
        self.missesReachNetwork = missesReachNetwork
    }

    /// A replay-only session over inline stubs; anything else fails with the miss report.
    ///
    /// - Throws: ``TonearmError/rule(_:)`` or ``TonearmError/stubBody(stub:reason:)`` (see
    ///   ``StubCompiler/engine(_:configuration:)``).
    public static func stubs(_ stubs: [Stub]) throws(TonearmError) -> ReplaySession {
        ReplaySession(engine: try StubCompiler.engine(stubs), source: "inline stubs")
    }

    /// Answers nothing, explaining why: what a bridge uses when no session is bound to the running task.
    public static let unscoped = ReplaySession(
        engine: ReplayEngine(tracks: []),
        source: "no Tonearm session is active (add .cassette(…) or .stubs(…) to the test, or wrap it in withCassette)",
        mode: .never, cassetteURL: nil, recorder: nil, redaction: Redaction(headers: []), logger: nil,
        keepsMisses: false)

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

    /// Reports each later miss by calling `reporter` in the context of the task that made the request,
    /// before the request fails, when that context can be known: the task itself when it calls
    /// ``respond(to:network:)`` with this session ``current``, or the bridge's stand-in for it (URLSession's
    /// `RequestingTask`). Swift Testing records issues this way so that the test and `withKnownIssue` see
    /// them.
    package func reportMissesInRequestingTask(_ reporter: @escaping @Sendable (SessionMiss) -> Void) {
        state.withLock { $0.inTaskMissReporter = reporter }
    }

    /// The reporter given to ``reportMissesInRequestingTask(_:)``, if any.
    package var inTaskMissReporter: (@Sendable (SessionMiss) -> Void)? {
        state.withLock { $0.inTaskMissReporter }
    }

    /// Names the test this session serves, as a `swift test --filter` argument, so a miss says how to
    /// record the missing answer.
    package func describeTest(filter: String) {
        state.withLock { $0.testFilter = filter }
    }

    /// The command that records what a miss lacked, when the session replays a cassette for a known test.
    private var howToRecord: String? {
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
    /// atomically, redacted; when `TONEARM_USAGE_DIR` names a folder, a usage record of the tracks and
    /// rules that answered is left there (`TonearmCassettes/UsageRecord`). Calling it again does
    /// nothing; it returns whether this call finished it.
    ///
    /// In ``RecordMode/all`` and ``RecordMode/missing`` the cassette is written only when something was
    /// recorded: a session that recorded nothing leaves the file as it was.
    @discardableResult
    public func finish() throws(TonearmError) -> Bool {
        let wasFinished = state.withLock { state in
            defer { state.finished = true }
            return state.finished
        }
        guard !wasFinished else { return false }
        // The usage record is written even when saving fails: what was replayed was replayed.
        let saving = Result { () throws(TonearmError) in try saveRecording() }
        try writeUsageRecord()
        try saving.get()
        return true
    }

    /// Leaves the usage record of what this session's engine answered so far in the usage folder, when
    /// the session keeps one (`TONEARM_USAGE_DIR`, or a server's `--usage-dir`); ``finish()`` does.
    package func writeUsageRecord() throws(TonearmError) {
        try usageLog?.write(engine)
    }

    /// How many exchanges were recorded since the session began.
    package var recordedCount: Int {
        state.withLock { $0.recordedCount }
    }

    /// Writes what was recorded to the cassette, atomically and redacted, when something was recorded
    /// since the last save (in ``RecordMode/all`` the file then holds only this session's recordings;
    /// in ``RecordMode/missing`` they are added to its tracks); otherwise never, so a session that
    /// recorded nothing never replaces a cassette with an empty one. Saves are serialised, so an older snapshot never
    /// replaces a newer one.
    package func saveRecording() throws(TonearmError) {
        guard let recorder, let cassetteURL, mode.records else { return }
        let result: Result<Void, TonearmError> = saving.withLock { savedCount in
            // Read before the recorder's snapshot, which then holds at least this many recordings.
            let recorded = state.withLock { $0.recordedCount }
            // Nothing new means nothing to write, in `all` mode too: an empty recording written over
            // the cassette (a server switching away before any request) would lose every track it held.
            guard recorded > savedCount else { return .success(()) }
            do throws(TonearmError) {
                try Self.write(recorder.cassette, to: cassetteURL)
                savedCount = recorded
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Keeps `track` for good: it answers from now on (added to the engine, redacted, after the tracks
    /// already there) and is written to the cassette file, atomically, in the file's own format. What
    /// the inspector's Accept and Record do.
    ///
    /// A session that records holds every recording made so far, and the kept track joins them, so the
    /// file written holds both: a save never loses an exchange recorded concurrently. One that only
    /// replays reads the file as it is on disk, adds the track and writes it back, under the same lock
    /// saves take. Returns the track's position in the engine.
    ///
    /// - Throws: ``TonearmError/cassette(_:)`` when the session has no file, or its format is one Tonearm
    ///   reads but does not write (VCR, WireMock, …; native JSON and HAR are written), or the file does
    ///   not load or cannot be written.
    package func keep(_ track: Track) throws(TonearmError) -> Int {
        guard let cassetteURL else {
            throw .cassette(CassetteError(file: nil, expected: "a cassette file to keep the track in", found: "\(source), which has none"))
        }
        let format = try Self.keptFormat(of: cassetteURL)
        if let recorder, mode.records {
            recorder.record(track)
            let position = engine.add(redaction.redact(track)).trackPosition ?? engine.index.positionCount - 1
            state.withLock { $0.recordedCount += 1 }
            try saveRecording()
            return position
        }
        let redacted = redaction.redact(track)
        let written: Result<Void, TonearmError> = saving.withLock { _ in
            do throws(CassetteError) {
                var cassette = FileManager.default.fileExists(atPath: cassetteURL.path) ? try format.load(cassetteURL).cassette : Cassette()
                cassette.entries.append(CassetteEntry(redacted, recordedAt: Date()))
                try CassetteFile.save(cassette, to: cassetteURL, format: format)
                return .success(())
            } catch {
                return .failure(.cassette(error))
            }
        }
        try written.get()
        return engine.add(redacted).trackPosition ?? engine.index.positionCount - 1
    }

    /// The format a track kept in `url` is written in: the file's own when Tonearm writes it (native
    /// JSON or HAR), the one its name implies when it does not exist yet.
    package static func keptFormat(of url: URL) throws(TonearmError) -> CassetteFormat {
        let format: CassetteFormat
        do throws(CassetteError) {
            format = FileManager.default.fileExists(atPath: url.path) ? try CassetteFormat.detect(url) : CassetteFile.outputFormat(for: url)
        } catch {
            throw .cassette(error)
        }
        guard format == .native || format == .har else {
            throw .cassette(CassetteError(
                file: url.path, expected: "a cassette Tonearm writes (native JSON or HAR)",
                found: "a \(format.name) file, which Tonearm reads but does not write"))
        }
        return format
    }

    private static func write(_ cassette: Cassette, to url: URL) throws(TonearmError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cassette(CassetteError(
                file: url.path, expected: "a folder that can be created", found: error.localizedDescription))
        }
        do throws(CassetteError) {
            try CassetteFile.save(cassette, to: url, format: CassetteFile.outputFormat(for: url))
        } catch {
            throw .cassette(error)
        }
    }

    /// The answer to one HTTP exchange: a replayed response (after its simulated delay), or, in the
    /// modes that reach the network, `network`'s answer, recorded when the mode records.
    ///
    /// Redirects are the bridge's business: a replayed or fetched 3xx is returned like any response.
    ///
    /// - Parameters:
    ///   - request: The request as the client sent it (redaction applies to matching and recording only).
    ///   - network: Performs exactly one real exchange for `request`; its errors are rethrown as they are.
    /// - Throws: ``ReplayFailure`` for a miss in ``RecordMode/never``, a replayed transport error or a
    ///   finished session; `CancellationError` when the task is cancelled during a delay; whatever
    ///   `network` throws.
    public func respond(
        to request: Request, network: (Request) async throws -> Response
    ) async throws -> Response {
        try await respond(to: request, network: network, reportMiss: nil)
    }

    /// ``respond(to:network:)`` for a bridge that answers off the requesting task: `reportMiss` reports a
    /// miss in that task's context (see ``reportMissesInRequestingTask(_:)``) and returns once it has.
    package func respond(
        to request: Request, network: (Request) async throws -> Response,
        reportMiss: (@Sendable (SessionMiss) async -> Void)?
    ) async throws -> Response {
        try await respondPaced(to: request, network: network, reportMiss: reportMiss).response
    }

    /// ``respond(to:network:reportMiss:)`` with how the body is to be delivered: a replayed stream's
    /// parts and their times as ``streamPacing`` has them (after the track's delay, which is waited out
    /// here), `nil` to deliver it whole.
    package func respondPaced(
        to request: Request, network: (Request) async throws -> Response,
        reportMiss: (@Sendable (SessionMiss) async -> Void)?
    ) async throws -> (response: Response, pacing: BodyPacing?) {
        guard !isFinished else { throw ReplayFailure.sessionFinished(source: source) }
        let answer: SessionAnswer
        do {
            answer = try await self.answer(to: request, network: network)
        } catch {
            log(LoggedExchange(request: request, source: .network, failure: "\(error)"))
            throw error
        }
        switch answer {
        case .replayed(let hit):
            let track = hit.track
            if let delay = track.delay { try await Task.sleep(for: delay) }
            switch track.outcome {
            case .response(let response):
                log(LoggedExchange(request: request, source: .replayed, status: response.status, response: response))
                return (response, track.pacing.flatMap { streamPacing.apply(to: $0) })
            case .transportError(let error):
                log(LoggedExchange(request: request, source: .replayed, failure: error.description))
                throw ReplayFailure.simulated(error)
            }
        case .missed(let report):
            let miss = SessionMiss(source: source, request: request, report: report, howToRecord: howToRecord)
            // Called by the requesting task itself (this session is its current one), the scope's
            // reporter can run right here.
            var inTask = reportMiss
            if inTask == nil, Self.current === self, let reporter = inTaskMissReporter {
                inTask = { miss in reporter(miss) }
            }
            noteMiss(miss, reportedInRequestingTask: inTask != nil)
            await inTask?(miss)
            throw ReplayFailure.miss(miss)
        case .fetched(let response):
            log(LoggedExchange(request: request, source: .network, status: response.status, response: response))
            return (response, nil)
        }
    }

    /// The decision every bridge makes for one request, without logging or waiting out a replayed
    /// track's delay: replay it, report a miss, or send it to the network (and record the answer when
    /// the mode records). The local server journals and delays answers itself, so it calls this.
    ///
    /// In ``RecordMode/missing``, identical requests (by key) that miss while one of them is being
    /// fetched wait for that fetch and are then decided again, so a request the app fires twice at once
    /// is recorded once (see ``RecordingsInFlight``).
    ///
    /// - Parameters:
    ///   - request: The request as the client sent it.
    ///   - network: Performs one real exchange.
    /// - Throws: Whatever `network` throws, also to the identical requests that waited for it.
    package func answer(
        to request: Request, network: (Request) async throws -> Response
    ) async throws -> SessionAnswer {
        switch decide(request) {
        case .answered(let answer): answer
        case .fetch(let report): try await fetch(request, missed: report, from: network)
        }
    }

    /// The first, synchronous half of ``answer(to:network:)``: what the engine alone decides. A server
    /// answers a replayed request on the connection's thread without starting a task, and starts one
    /// only for a request that must go to the network (``fetch(_:missed:from:)``).
    package func decide(_ request: Request) -> SessionDecision {
        guard mode.replays else { return .fetch(nil) }
        switch engine.match(redaction.redact(request)) {
        case .hit(let hit):
            return .answered(.replayed(hit))
        case .miss(let report):
            guard mode.reachesNetworkOnMiss || missesReachNetwork else { return .answered(.missed(report)) }
            return .fetch(report)
        }
    }

    /// The second half of ``answer(to:network:)``, for a request ``decide(_:)`` sent to the network:
    /// fetches it, recording the answer when the mode records, or, when an identical request is being
    /// recorded already, waits for that one and decides again.
    ///
    /// - Parameter report: Why the engine missed, from ``SessionDecision/fetch(_:)``; `nil` when the
    ///   mode does not replay.
    package func fetch(
        _ request: Request, missed report: MissReport?, from network: (Request) async throws -> Response
    ) async throws -> SessionAnswer {
        try await fetch(request, missed: report, fromPaced: { (try await network($0), nil) })
    }

    /// ``fetch(_:missed:from:)`` for a network that says how the body arrived (a stream's parts and their
    /// times, kept as the recorded track's ``Track/pacing``).
    package func fetch(
        _ request: Request, missed report: MissReport?, fromPaced network: (Request) async throws -> (Response, BodyPacing?)
    ) async throws -> SessionAnswer {
        guard let report, mode.records, recorder != nil else { return .fetched(try await fetchOnce(request, from: network)) }
        var key = report.key
        while true {
            switch recordingsInFlight.join(key) {
            case .follow(let fetch):
                switch await fetch.outcome() {
                case .recorded:
                    // A request waits at most once: missing still (the strategy plays each track once,
                    // say), it goes to the network alongside the others.
                    if case .answered(let answer) = decide(request) { return answer }
                    return .fetched(try await fetchOnce(request, from: network))
                case .abandoned:
                    switch decide(request) {
                    case .answered(let answer): return answer
                    case .fetch(let again): key = again?.key ?? key
                    }
                case .failed(let error):
                    throw error
                }
            case .lead(let key):
                // A fetch for this key may have finished between the miss and the join: its track answers.
                if case .answered(let answer) = decide(request) {
                    recordingsInFlight.finish(key, outcome: .recorded)
                    return answer
                }
                do {
                    let response = try await fetchOnce(request, from: network)
                    recordingsInFlight.finish(key, outcome: .recorded)
                    return .fetched(response)
                } catch is CancellationError {
                    recordingsInFlight.finish(key, outcome: .abandoned)
                    throw CancellationError()
                } catch {
                    recordingsInFlight.finish(key, outcome: .failed(error))
                    throw error
                }
            }
        }
    }

    /// Records `track`, an exchange the caller carried out itself (a WebSocket conversation relayed to the
    /// end), when the mode records.
    package func recordExchange(_ track: Track) {
        guard mode.records else { return }
        noteRecorded(track)
    }

    /// The engine's answer for a request that has nowhere else to go (the server has no upstream for
    /// it), whatever the mode: a replay or a miss.
    package func answerWithoutNetwork(to request: Request) -> SessionAnswer {
        switch engine.match(redaction.redact(request)) {
        case .hit(let hit): .replayed(hit)
        case .miss(let report): .missed(report)
        }
    }

    /// One real exchange, recorded when the mode records.
    private func fetchOnce(_ request: Request, from network: (Request) async throws -> (Response, BodyPacing?)) async throws -> Response {
        let (response, pacing) = try await network(request)
        if mode.records { noteRecorded(Track(request: request, response: response, pacing: pacing)) }
        return response
    }

    /// Keeps `miss` for ``misses``; `reportedInRequestingTask` says whether the requesting task reports
    /// it, so the scope's end does not report it again.
    private func noteMiss(_ miss: SessionMiss, reportedInRequestingTask: Bool) {
        log(LoggedExchange(request: miss.request, source: .missed, failure: "miss: \(miss.report.reason)"))
        guard keepsMisses else { return }
        state.withLock { state in
            state.misses.append(miss)
            if !reportedInRequestingTask { state.unreportedMisses.append(miss) }
        }
    }

    private func noteRecorded(_ track: Track) {
        guard let recorder else { return }
        recorder.record(track)
        // In missing mode the engine answers from what was just recorded, as if the cassette had been
        // reloaded; the recording request counts as its first play (docs/testing.md).
        if mode == .missing { engine.add(redaction.redact(track), playedByRecordingRequest: true) }
        state.withLock { $0.recordedCount += 1 }
        if savesEachRecording {
            do throws(TonearmError) {
                try saveRecording()
            } catch {
                StandardStream.error.writeLine("tonearm: \(error)")
            }
        }
    }

    private func log(_ exchange: LoggedExchange) {
        if keepsMisses { state.withLock { $0.exchanges.append(exchange) } }
        logger?(exchange)
    }
}
