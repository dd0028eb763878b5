/// Decides which recorded or stubbed answer a request gets.
///
/// The engine canonicalises and hashes each request once and hands the strategy an ``IncomingRequest``.
/// Conform to this protocol to plug in your own policy; wrap it with ``Strategy/custom(_:)`` to use it
/// in an engine or inside a ``Strategy/chain(_:)-([Strategy])``.
///
/// `match(_:)` is called concurrently from many tasks: a stateful strategy keeps its state behind a
/// `Mutex` or atomics, and a request must never be answered twice by a track meant to play once.
public protocol MatchingStrategy: Sendable {
    /// The answer for `request`, or why there is none.
    func match(_ request: IncomingRequest) -> StrategyOutcome

    /// Returns the strategy to its initial state (every queue full, every cursor at the start).
    func reset()
}

extension MatchingStrategy {
    /// Stateless strategies have nothing to reset.
    public func reset() {}
}

/// A live request as strategies see it: the request, its canonical form and its key, computed once.
public struct IncomingRequest: Sendable {
    /// The request as sent.
    public let request: Request
    /// Its canonical form under the engine's configuration.
    public let canonical: CanonicalRequest
    /// The hash of `canonical`.
    public let key: RequestKey

    /// Creates an incoming request; `canonical` and `key` must come from the engine's canonicalizer.
    public init(request: Request, canonical: CanonicalRequest, key: RequestKey) {
        self.request = request
        self.canonical = canonical
        self.key = key
    }
}

/// A strategy's answer.
public enum StrategyOutcome: Sendable {
    /// A track answers the request.
    case hit(Hit)
    /// Nothing answers; the reason feeds the miss report.
    case miss(MissReason)
}

/// What answered a request.
public struct Hit: Sendable {
    /// Where an answer came from.
    public enum Source: Sendable, Hashable {
        /// A recorded track, by its position: its place among every track added to the engine (removed
        /// tracks keep theirs, so positions never shift).
        case track(position: Int)
        /// A regex rule, by its name and its place among the rules declared or added (0-based).
        case rule(name: String, position: Int)
        /// A custom strategy's own source, named for reports.
        case custom(String)
    }

    /// The track to replay (for rules, a track made from the rule's response).
    ///
    /// A recorded track is read from the engine's index when this is read, and one the index keeps
    /// packed is decoded then, each time: read it once. A caller that only needs to know *which* track
    /// answered (``source``; a server that keeps each track's answer encoded) never pays for the decoding.
    public var track: Track {
        get {
            switch storage {
            case .track(let track): track
            case .recorded(let index, let position, let request): index.recordedTrack(at: position, answering: request)
            }
        }
        set { storage = .track(newValue) }
    }
    /// Where it came from.
    public var source: Source
    private var storage: Storage

    /// Where ``track`` is: at hand, or a recorded track read from the index on demand.
    private enum Storage: Sendable {
        case track(Track)
        /// The track at `position` in `index`; when it answers `answering`, it may share that request's
        /// strings (``TrackIndex/recordedTrack(at:answering:)``).
        case recorded(TrackIndex, position: Int, answering: Request?)
    }

    /// Creates a hit.
    public init(track: Track, source: Source) {
        storage = .track(track)
        self.source = source
    }

    /// A hit on the recorded track at `position` in `index` (published, removed or not), read only when
    /// ``track`` is; `request` is the request it answers, when there is one.
    init(recordedAt position: Int, in index: TrackIndex, answering request: Request? = nil) {
        storage = .recorded(index, position: position, answering: request)
        source = .track(position: position)
    }

    /// The same hit, no longer holding the request it answered (whose strings a decoded track may
    /// share): for keeping a hit beyond its exchange, such as with an answer kept encoded.
    package func forgettingRequest() -> Hit {
        guard case .recorded(let index, let position, .some) = storage else { return self }
        return Hit(recordedAt: position, in: index)
    }

    /// The track's position in the engine's tracks, when the answer is a recorded track.
    public var trackPosition: Int? {
        if case .track(let position) = source { return position }
        return nil
    }
}
