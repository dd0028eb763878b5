/// Answers from a ``RuleSet``: the first rule, by priority then declared order, that matches.
struct RuleStrategy: MatchingStrategy {
    /// The rules.
    let rules: RuleSet
    /// The engine's scenario states, which rules with a scenario check and move.
    let scenarios: ScenarioStates

    /// A strategy answering from `rules`, with the scenario states of the engine it serves.
    init(rules: RuleSet, scenarios: ScenarioStates) {
        self.rules = rules
        self.scenarios = scenarios
    }

    /// The first matching rule's answer.
    func match(_ request: IncomingRequest) -> StrategyOutcome {
        rules.store.match(request, scenarios: scenarios)
    }
}
