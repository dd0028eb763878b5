/// A rule that cannot be used, found when the rules are loaded rather than when a request arrives.
public struct RuleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule's position in the declared list (0-based).
    public var ruleIndex: Int
    /// The rule's name.
    public var ruleName: String
    /// The offending pattern.
    public var pattern: String
    /// What is wrong, e.g. the regex compiler's message.
    public var message: String

    /// A human-readable description naming the rule.
    public var description: String {
        "rule #\(ruleIndex) \"\(ruleName)\": invalid pattern \(pattern.debugDescription): \(message)"
    }
}
