/// Answers from a ``RuleSet``: the first rule, by priority then declared order, that matches.
struct RuleStrategy: MatchingStrategy {
    /// The rules.
    let rules: RuleSet

    /// A strategy answering from `rules`.
    init(rules: RuleSet) {
        self.rules = rules
    }

    /// The first matching rule's answer.
    func match(_ request: IncomingRequest) -> StrategyOutcome {
        rules.store.match(request)
    }
}
