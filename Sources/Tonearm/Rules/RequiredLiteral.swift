/// The runs of literal text every match of a pattern must contain, so a rule whose pattern has no usable
/// prefix (`/export\.csv$`) can still be skipped with a byte search instead of a pattern run, and a rule
/// set can file each rule under text that must occur (``RuleShard``).
enum RequiredLiteral {
    /// The longest run of consecutive literal scalars among the parts every match goes through, or ""
    /// when there is none (a top-level alternation, or nothing but classes).
    static func of(_ pattern: PatternNode) -> String {
        var longest = String.UnicodeScalarView()
        for run in scalarRuns(of: pattern) where run.count > longest.count { longest = run }
        return String(longest)
    }

    /// Every maximal run of consecutive literal scalars among the parts every match goes through, as
    /// UTF-8, in pattern order. Text inside a repeated, optional or alternated group is not required, so
    /// it ends a run; so does any other part (a class or an assertion).
    static func runs(of pattern: PatternNode) -> [[UInt8]] {
        scalarRuns(of: pattern).map { Array(String($0).utf8) }
    }

    private static func scalarRuns(of pattern: PatternNode) -> [String.UnicodeScalarView] {
        var runs: [String.UnicodeScalarView] = []
        var run = String.UnicodeScalarView()
        for part in PatternNode.sequence(of: pattern) {
            if case .literal(let scalar) = part.kind {
                run.append(scalar)
            } else if !run.isEmpty {
                runs.append(run)
                run = String.UnicodeScalarView()
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }
}
