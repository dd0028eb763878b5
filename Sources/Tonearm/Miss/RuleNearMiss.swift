/// A stub rule close to a request that missed, with every condition of the rule the request does not
/// meet: the rule-side counterpart of ``NearMiss``.
public struct RuleNearMiss: Sendable, CustomStringConvertible {
    /// The rule's sequence number in its engine (its place in added order, from 0).
    public var position: Int
    /// The rule.
    public var rule: Rule
    /// The rule's conditions the request does not meet (``FieldDifference/unmetCondition(_:name:condition:received:)``),
    /// in the order the rule declares them, plus a ``FieldDifference/scenarioState(scenario:current:required:)``
    /// when every condition holds but the rule's scenario is in another state.
    public var differences: [FieldDifference]

    /// The sum of the differences' weights, on the scale of ``NearMiss``'s: a differing method or
    /// pattern weighs 4, any other condition 1.
    package var distance: Int { differences.reduce(0) { $0 + $1.weight } }

    /// The rule's name, pattern and unmet conditions, one per line.
    public var description: String {
        let method = rule.method.map { $0 + " " } ?? ""
        let label = "rule \(rule.name.debugDescription) (\(method)\(rule.target.rawValue) matching \(rule.pattern.debugDescription))"
        guard !differences.isEmpty else { return label + ": every condition holds" }
        let count = differences.count
        var lines = differences.prefix(NearMiss.listedDifferences).map { "    - \($0)" }
        if count > NearMiss.listedDifferences { lines.append("    … and \(count - NearMiss.listedDifferences) more") }
        return label + ": \(count) unmet condition\(count == 1 ? "" : "s")\n" + lines.joined(separator: "\n")
    }
}
