/// A recipe for a ``MatchingStrategy``: the engine builds it over its ``TrackIndex``.
///
/// Reads as a choice at the call site:
/// ```swift
/// let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
/// let custom = ReplayEngine(tracks: tracks, strategy: .chain(.fifo(whenExhausted: .miss), .custom { MyFallback($0) }))
/// ```
public struct Strategy: Sendable {
    /// Builds the live strategy for an engine.
    public let make: @Sendable (TrackIndex) -> any MatchingStrategy

    /// A strategy built by `make` from the engine's live index: tracks added to the engine later appear
    /// in it (``TrackIndex/positions(for:)``, ``TrackIndex/track(at:)``), so a custom strategy must not
    /// assume a fixed track count.
    public static func custom(_ make: @escaping @Sendable (TrackIndex) -> any MatchingStrategy) -> Strategy {
        Strategy(make: make)
    }

    /// The first track recorded for a key answers every time.
    public static var `repeat`: Strategy {
        Strategy { RepeatStrategy(index: $0) }
    }

    /// Per key, tracks answer in recording order; once all have played, `whenExhausted` decides.
    public static func fifo(whenExhausted: ExhaustionPolicy = .repeatLast) -> Strategy {
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

    /// A fixed set of ordered regex rules, independent of the recorded tracks. An engine's own rules
    /// (``ReplayEngine/init(tracks:rules:strategy:configuration:)``) already answer after its tracks and
    /// can be added and removed; use this stage to put rules elsewhere in a chain.
    public static func rules(_ rules: RuleSet) -> Strategy {
        Strategy { RuleStrategy(rules: rules, scenarios: $0.scenarioStates) }
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
