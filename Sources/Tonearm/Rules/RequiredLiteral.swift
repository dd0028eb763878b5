/// The longest run of literal text every match of a pattern must contain, so a rule whose pattern has
/// no usable prefix (`/export\.csv$`) can still be skipped with a byte search instead of a pattern run.
enum RequiredLiteral {
    /// The longest run of consecutive literal scalars among the parts every match goes through, or ""
    /// when there is none (a top-level alternation, or nothing but classes). Text inside a repeated,
    /// optional or alternated group is not required, so it ends a run.
    static func of(_ pattern: PatternNode) -> String {
        var best = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        for part in PatternNode.sequence(of: pattern) {
            if case .literal(let scalar) = part.kind {
                run.append(scalar)
            } else {
                if run.count > best.count { best = run }
                run = String.UnicodeScalarView()
            }
        }
        if run.count > best.count { best = run }
        return String(best)
    }
}
