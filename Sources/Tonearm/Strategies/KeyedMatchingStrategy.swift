/// A built-in strategy that decides from a request's key alone.
///
/// The engine asks such a strategy before canonicalising the request: ``RequestCanonicalizer/key(for:)``
/// hashes lines written in scratch memory, so a hit costs no canonical form (its array, its normalised
/// URL's strings). Only a miss, whose report and rule stage need the canonical form, builds one.
/// Custom strategies may read ``IncomingRequest/canonical``, so they are always handed the full request.
protocol KeyedMatchingStrategy: MatchingStrategy {
    /// The answer for `request`, whose key is `key`, exactly as ``MatchingStrategy/match(_:)`` would give.
    /// Only the key decides; the request is there for the hit's track to share its strings.
    func match(key: RequestKey, request: Request) -> StrategyOutcome
}

extension KeyedMatchingStrategy {
    /// The answer for `request`, decided by its key.
    func match(_ request: IncomingRequest) -> StrategyOutcome {
        match(key: request.key, request: request.request)
    }
}

/// The built-in strategies that decide by key, as one enum the engine switches over: its calls are
/// direct and inlinable, where a call through an existential or a closure copies the hit's track
/// (about 130 bytes) once more at every layer. Not optional: `notKeyed` stands for any other strategy,
/// so the engine reads its stored value in place instead of copying an optional out on every match.
enum KeyedStrategy: Sendable {
    case notKeyed
    case repeating(RepeatStrategy)
    case queue(QueueStrategy)
    case strictOrder(StrictOrderStrategy)

    /// `strategy` as a keyed strategy, or `notKeyed` when it is not one of the built-in ones.
    init(_ strategy: any MatchingStrategy) {
        switch strategy {
        case let repeating as RepeatStrategy: self = .repeating(repeating)
        case let queue as QueueStrategy: self = .queue(queue)
        case let strictOrder as StrictOrderStrategy: self = .strictOrder(strictOrder)
        default: self = .notKeyed
        }
    }

    /// Whether ``match(key:request:)`` answers.
    var decidesByKey: Bool {
        if case .notKeyed = self { return false }
        return true
    }

    /// The strategy's answer for `request`, whose key is `key`; only when ``decidesByKey``.
    @inline(__always)
    func match(key: RequestKey, request: Request) -> StrategyOutcome {
        switch self {
        case .notKeyed: .miss(.notRecorded)
        case .repeating(let strategy): strategy.match(key: key, request: request)
        case .queue(let strategy): strategy.match(key: key, request: request)
        case .strictOrder(let strategy): strategy.match(key: key, request: request)
        }
    }
}
