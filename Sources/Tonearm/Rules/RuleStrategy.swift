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
        let (found, tried) = rules.firstMatch(for: request)
        guard let found else {
            return .miss(.noRuleMatched(ruleCount: rules.rules.count, rulesTried: tried))
        }
        let rule = found.rule
        let track = Track(request: request.request, outcome: rule.outcome, name: rule.name, delay: rule.delay)
        return .hit(Hit(track: track, source: .rule(name: rule.name, position: found.declaredIndex)))
    }
}
