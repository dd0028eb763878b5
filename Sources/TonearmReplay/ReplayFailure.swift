import Tonearm

/// Why ``ReplaySession/respond(to:network:)`` produced no response: a miss, a replayed transport error,
/// or a session that has finished.
///
/// Bridges turn these into their client's own errors where the client has one (URLSession's `URLError`,
/// AsyncHTTPClient's `HTTPClientError`) and throw them as they are otherwise, so a miss always carries
/// its report. Failures may be added, so this is a struct with static members rather than an enum.
public struct ReplayFailure: Error, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case miss(SessionMiss)
        case simulated(TransportError)
        case sessionFinished(source: String)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// The session could not answer in ``RecordMode/never`` mode; the miss names the closest tracks.
    public static func miss(_ miss: SessionMiss) -> ReplayFailure { ReplayFailure(.miss(miss)) }
    /// The matching track or stub replays a transport error.
    public static func simulated(_ error: TransportError) -> ReplayFailure { ReplayFailure(.simulated(error)) }
    /// The session has finished (its test ended); requests after that are not answered.
    public static func sessionFinished(source: String) -> ReplayFailure {
        ReplayFailure(.sessionFinished(source: source))
    }

    /// The miss, for ``miss(_:)``; `nil` otherwise.
    public var miss: SessionMiss? {
        if case .miss(let miss) = storage { return miss }
        return nil
    }

    /// The replayed transport error, for ``simulated(_:)``; `nil` otherwise.
    public var simulatedError: TransportError? {
        if case .simulated(let error) = storage { return error }
        return nil
    }

    /// Whether the session had finished, for ``sessionFinished(source:)``.
    public var isSessionFinished: Bool {
        if case .sessionFinished = storage { return true }
        return false
    }

    /// The miss report, the simulated error, or which session had finished.
    public var description: String {
        switch storage {
        case .miss(let miss): miss.description
        case .simulated(let error): "Tonearm simulated \(error)"
        case .sessionFinished(let source):
            "Tonearm: the session for \(source) has finished; requests after the test ends are not answered"
        }
    }
}
