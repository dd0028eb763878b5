/// Where a rule stands in the order rules are tried: lower ``priority`` first (rules without one have
/// ``Rule/defaultPriority``, as in WireMock), then the order rules were declared or added.
///
/// The one definition of rule order: the engine, ``RuleSet``, the linter and the benchmarks' naive
/// matcher all sort with it.
package struct RuleRank: Comparable, Hashable, Sendable {
    /// The rule's priority, ``Rule/defaultPriority`` when it declares none.
    package let priority: Int
    /// The rule's place in declared (or added) order.
    package let sequence: Int

    /// The rank of `rule`, declared or added as the `sequence`th rule.
    package init(_ rule: Rule, sequence: Int) {
        priority = rule.priority ?? Rule.defaultPriority
        self.sequence = sequence
    }

    /// Lower priority first, then earlier sequence.
    package static func < (lhs: RuleRank, rhs: RuleRank) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority < rhs.priority : lhs.sequence < rhs.sequence
    }
}

extension Rule {
    /// The positions of `rules` (as declared) in the order they are tried.
    package static func triedOrder(_ rules: [Rule]) -> [Int] {
        rules.indices.sorted { RuleRank(rules[$0], sequence: $0) < RuleRank(rules[$1], sequence: $1) }
    }
}
