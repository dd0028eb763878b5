import Tonearm

/// The five track strategies the benchmarks compare, with the request order each needs to hit.
public enum BenchStrategy: String, Sendable, Hashable, CaseIterable, Codable {
    /// The first track for a key answers every time.
    case `repeat`
    /// Per key in recording order; the last track repeats once all have played.
    case fifo
    /// Each track plays once; replayed as every track once, shuffled, then the engine is reset.
    case uniquePlay = "unique-play"
    /// Requests in recorded order; replayed as every track once, in order, then the engine is reset.
    case strictOrder = "strict-order"
    /// Recorded tracks (repeat), then regex rules when given: the usual stub-server chain.
    case chain

    /// The strategy to build an engine with; `rules` is the chain's second stage.
    public func strategy(rules: RuleSet? = nil) -> Strategy {
        switch self {
        case .repeat: .repeat
        case .fifo: .fifo(whenExhausted: .repeatLast)
        case .uniquePlay: .uniquePlay
        case .strictOrder: .strictOrder
        case .chain: .chain([.repeat] + (rules.map { [Strategy.rules($0)] } ?? []))
        }
    }

    /// Whether replaying every track once uses the engine up, so it must be reset before going on.
    public var consumesTracks: Bool {
        self == .uniquePlay || self == .strictOrder
    }

    /// Requests that all hit under this strategy: `count` drawn from the realistic hit mix, or for
    /// strategies that consume tracks, every track once (shuffled for unique-play, in recorded order for
    /// strict order), whatever `count`.
    public func hitStream(for workload: Workload, count: Int, seed: UInt64 = 2) -> [WorkloadRequest] {
        switch self {
        case .repeat, .fifo, .chain: workload.stream(count: count, mix: .realisticHits, seed: seed)
        case .uniquePlay: workload.everyTrackOnce(shuffled: true, seed: seed)
        case .strictOrder: workload.everyTrackOnce(shuffled: false, seed: seed)
        }
    }
}
