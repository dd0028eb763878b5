/// Answers from a ``RuleSet``: the first rule, by priority then declared order, that matches.
public struct RuleStrategy: MatchingStrategy {
    /// The rules.
    public let rules: RuleSet

    /// A strategy answering from `rules`.
    public init(rules: RuleSet) {
        self.rules = rules
    }

    /// The first matching rule's answer.
    public func match(_ request: IncomingRequest) -> StrategyOutcome {
        rules.store.match(request)
    }
}
