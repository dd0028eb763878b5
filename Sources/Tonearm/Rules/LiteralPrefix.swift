/// The literal text every match of an anchored pattern starts with, so most rules can be skipped with
/// a byte comparison instead of running the pattern (and the rule index can file them by it).
enum LiteralPrefix {
    /// The literal prefix of `pattern`, or "" when it does not start with `^` on its one branch.
    /// Letters under `(?i)` are not literals in the tree, so the prefix stops before them.
    static func of(_ pattern: PatternNode) -> String {
        let parts = PatternNode.sequence(of: pattern)
        guard case .assertion(.textStart)? = parts.first?.kind else { return "" }
        var prefix = String.UnicodeScalarView()
        for part in parts.dropFirst() {
            guard case .literal(let scalar) = part.kind else { break }
            prefix.append(scalar)
        }
        return String(prefix)
    }
}

extension PatternNode {
    /// The parts every match goes through in order: a concatenation's items, with nested concatenations
    /// (plain groups) opened; any other node is one part.
    static func sequence(of node: PatternNode) -> [PatternNode] {
        guard case .concatenation(let items) = node.kind else { return [node] }
        return items.flatMap(sequence(of:))
    }
}
