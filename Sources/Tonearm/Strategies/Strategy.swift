/// A recipe for a ``MatchingStrategy``: the engine builds it over its ``TrackIndex``.
///
/// Reads as a choice at the call site:
/// ```swift
/// let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
/// let stubbed = ReplayEngine(tracks: tracks, strategy: .chain(.fifo(whenExhausted: .miss), .rules(rules)))
/// ```
public struct Strategy: Sendable {
    /// Builds the live strategy for an engine.
    public let make: @Sendable (TrackIndex) -> any MatchingStrategy

    /// A strategy built by `make` from the engine's index.
    public static func custom(_ make: @escaping @Sendable (TrackIndex) -> any MatchingStrategy) -> Strategy {
        Strategy(make: make)
    }

    /// The first track recorded for a key answers every time.
    public static var `repeat`: Strategy {
        Strategy { RepeatStrategy(index: $0) }
    }

    /// Per key, tracks answer in recording order; once all have played, `whenExhausted` decides.
    public static func fifo(whenExhausted: QueueStrategy.ExhaustionPolicy = .repeatLast) -> Strategy {
        Strategy { QueueStrategy(index: $0, whenExhausted: whenExhausted) }
    }

    /// Each track plays at most once (per key in recording order); then the key misses as exhausted.
    public static var uniquePlay: Strategy {
        Strategy { QueueStrategy(index: $0, whenExhausted: .miss) }
    }

    /// Requests must arrive in exactly the recorded order.
    public static var strictOrder: Strategy {
        Strategy { StrictOrderStrategy(index: $0) }
    }

    /// Ordered regex rules, independent of the recorded tracks.
    public static func rules(_ rules: RuleSet) -> Strategy {
        Strategy { _ in RuleStrategy(rules: rules) }
    }

    /// Stages tried in order; the first hit answers.
    public static func chain(_ stages: Strategy...) -> Strategy {
        chain(stages)
    }

    /// Stages tried in order; the first hit answers.
    public static func chain(_ stages: [Strategy]) -> Strategy {
        Strategy { index in ChainStrategy(stages: stages.map { $0.make(index) }) }
    }
}
