import Tonearm

/// Replays a request stream against one engine in batches, for benchmark loops: wraps around at the end
/// of the stream, and for strategies that consume tracks resets the engine at the wrap — in
/// ``prepare(batch:)``, which a benchmark calls before it starts measuring, so resets are never timed.
public struct StreamReplayer: Sendable {
    /// The engine under test.
    public let engine: ReplayEngine
    /// The requests, replayed in order.
    public let requests: [Request]
    /// Whether the engine must be reset before the stream is replayed again.
    public let resetsAtWrap: Bool
    private var position = 0

    /// A replayer of `requests` against `engine`; `resetsAtWrap` for unique-play and strict order.
    public init(engine: ReplayEngine, requests: [Request], resetsAtWrap: Bool) {
        self.engine = engine
        self.requests = requests
        self.resetsAtWrap = resetsAtWrap
    }

    /// Makes sure the next `batch` requests can be replayed without a reset in between: when fewer
    /// than `batch` are left before the end of a stream that consumes tracks, resets the engine and
    /// starts over. `batch` must not exceed the stream's length.
    public mutating func prepare(batch: Int) {
        guard resetsAtWrap, position + batch > requests.count else { return }
        engine.reset()
        position = 0
    }

    /// Replays the next `batch` requests and returns how many hit.
    @discardableResult
    public mutating func replay(batch: Int) -> Int {
        guard !requests.isEmpty else { return 0 }
        var hits = 0
        for _ in 0..<batch {
            if position == requests.count { position = 0 }
            if case .hit = engine.match(requests[position]) { hits += 1 }
            position += 1
        }
        return hits
    }
}
