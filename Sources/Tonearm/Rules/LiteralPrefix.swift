/// The literal text every match of an anchored pattern starts with, so most rules can be skipped with
/// a byte comparison instead of running the pattern (and the rule index can file them by it).
enum LiteralPrefix {
    /// The literal prefix of `pattern`, or "" when it does not start with `^` on its one branch.
    /// Letters under `(?i)` are not literals in the tree, so the prefix stops before them.
    static func of(_ pattern: PatternNode) -> String {
        split(pattern).map { String($0.prefix) } ?? ""
    }

    /// `pattern` as its literal prefix and the rest: the parts after `^` and the prefix, as one
    /// concatenation; `nil` when the prefix is empty. A match is the prefix at the start of the text,
    /// then a match of the rest anchored right after it.
    static func split(_ pattern: PatternNode) -> (prefix: String.UnicodeScalarView, rest: PatternNode)? {
        let parts = PatternNode.sequence(of: pattern)
        guard case .assertion(.textStart)? = parts.first?.kind else { return nil }
        var prefix = String.UnicodeScalarView()
        var restStart = 1
        while restStart < parts.count, case .literal(let scalar) = parts[restStart].kind {
            prefix.append(scalar)
            restStart += 1
        }
        guard !prefix.isEmpty else { return nil }
        let offset = restStart < parts.count ? parts[restStart].offset : pattern.offset
        return (prefix, PatternNode(kind: .concatenation(Array(parts[restStart...])), offset: offset))
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
