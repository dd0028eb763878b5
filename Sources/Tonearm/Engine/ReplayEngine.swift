/// Answers requests from recorded tracks (and rules) under one strategy: the heart of Tonearm.
///
/// ```swift
/// let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
/// switch engine.match(request) {
/// case .hit(let hit): deliver(hit.track.outcome)
/// case .miss(let report): print(report)   // the closest tracks and what differs
/// }
/// ```
///
/// The engine is `Sendable`: call `match` from any number of tasks. It canonicalises each request once,
/// finds tracks by key in O(1) on average, and builds a miss report only when a request misses.
public final class ReplayEngine: Sendable {
    /// The indexed tracks.
    public let index: TrackIndex
    /// The live strategy.
    public let strategy: any MatchingStrategy

    /// An engine over `tracks`, keyed under `configuration`, answering by `strategy`.
    public init(tracks: [Track], strategy: Strategy = .repeat, configuration: MatchingConfiguration = .default) {
        let index = TrackIndex(tracks: tracks, canonicalizer: RequestCanonicalizer(configuration))
        self.index = index
        self.strategy = strategy.make(index)
    }

    /// The canonicalizer keys are made with.
    public var canonicalizer: RequestCanonicalizer { index.canonicalizer }

    /// The answer for `request`, or a report of why there is none.
    public func match(_ request: Request) -> MatchResult {
        let incoming = incomingRequest(for: request)
        switch strategy.match(incoming) {
        case .hit(let hit):
            return .hit(hit)
        case .miss(let reason):
            return .miss(report(for: incoming, reason: reason))
        }
    }

    /// The canonical form and key `request` is matched by.
    public func incomingRequest(for request: Request) -> IncomingRequest {
        let canonical = index.canonicalizer.canonicalize(request)
        return IncomingRequest(request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes))
    }

    /// Returns the strategy to its initial state: every track playable again, strict order rewound.
    public func reset() {
        strategy.reset()
    }

    private func report(for incoming: IncomingRequest, reason: MissReason) -> MissReport {
        let (nearest, compared) = NearMissFinder.nearest(to: incoming.canonical, in: index)
        return MissReport(
            request: incoming.request, canonical: incoming.canonical, key: incoming.key, reason: reason,
            nearest: nearest, candidatesCompared: compared)
    }
}
