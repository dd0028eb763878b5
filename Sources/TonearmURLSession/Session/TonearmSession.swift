import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Tonearm
import TonearmCassettes
@_exported import TonearmReplay

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

    /// The transport-independent session this one answers from: its engine, mode, recordings and
    /// misses, shared with any other bridge (AsyncHTTPClient, OpenAPI) handed the same session.
    public let replaySession: ReplaySession
    /// The `URLProtocol` subclass that routes requests to this session; add it to your own
    /// configuration's `protocolClasses`, or use ``makeConfiguration(from:)``.
    public let protocolClass: URLProtocol.Type
    /// A URLSession whose every request goes through this session.
    public let urlSession: URLSession

    let number: UInt64

    /// What the session replays from, for messages: the cassette's path, or a label such as "inline stubs".
    public var source: String { replaySession.source }
    /// The cassette file recordings are saved to, when there is one.
    public var cassetteURL: URL? { replaySession.cassetteURL }
    /// The engine answering requests.
    public var engine: ReplayEngine { replaySession.engine }
    /// What the session does with the network.
    public var mode: RecordMode { replaySession.mode }
    /// What is hidden before recording, and from live requests before matching.
    public var redaction: Redaction { replaySession.redaction }

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
        self.init(replaying: ReplaySession(engine: engine, source: source), configuration: configuration)
    }

    /// A URLSession front for `replaySession`, e.g. one a test also hands to an AsyncHTTPClient or
    /// OpenAPI bridge, so every client in the test answers from (and records into) the same cassette.
    ///
    /// - Parameters:
    ///   - replaySession: Answers, records and keeps the misses.
    ///   - configuration: The base configuration for ``urlSession``; its protocol classes are kept after
    ///     Tonearm's.
    public init(replaying replaySession: ReplaySession, configuration: URLSessionConfiguration = .ephemeral) {
        self.replaySession = replaySession
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

    /// Requests that found no answer in `RecordMode/never` mode, oldest first.
    public var misses: [SessionMiss] { replaySession.misses }

    /// Returns the misses so far and forgets them, for tests that expect misses and assert on them:
    /// TonearmTesting reports only the misses still pending when the test ends.
    public func takeMisses() -> [SessionMiss] { replaySession.takeMisses() }

    /// Every request handled so far and where its answer came from.
    public var exchanges: [LoggedExchange] { replaySession.exchanges }

    /// Whether ``finish()`` has run; a finished session fails every request.
    public var isFinished: Bool { replaySession.isFinished }

    /// Ends the session: it stops answering, and what was recorded is saved to the cassette
    /// atomically, redacted. Calling it again does nothing.
    ///
    /// In `RecordMode/all` and `RecordMode/missing` the cassette is written only when something was
    /// recorded: a session that recorded nothing leaves the file as it was.
    public func finish() throws(TonearmError) {
        guard !replaySession.isFinished else { return }
        SessionRegistry.unregister(number: number)
        if SessionRegistry.globalSession === self { SessionRegistry.setGlobal(nil) }
        urlSession.finishTasksAndInvalidate()
        try replaySession.finish()
    }

    /// Runs `body` with this session bound to ``current`` and its ``replaySession`` to
    /// ``ReplaySession/current``, so URLSession and the other bridges answer from it.
    package func scoped<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self) { try ReplaySession.$current.withValue(replaySession, operation: body) }
    }

    /// The `async` form of the synchronous `scoped(_:)`.
    package func scoped<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$current.withValue(self) {
            try await ReplaySession.$current.withValue(replaySession, operation: body)
        }
    }
}
