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
