/// The runs of literal text every match of a pattern must contain, so a rule whose pattern has no usable
/// prefix (`/export\.csv$`) can still be skipped with a byte search instead of a pattern run, and a rule
/// set can file each rule under text that must occur (``RuleShard``).
enum RequiredLiteral {
    /// The longest run of consecutive literal scalars among the parts every match goes through, or ""
    /// when there is none (a top-level alternation, or nothing but classes).
    static func of(_ pattern: PatternNode) -> String {
        var longest = String.UnicodeScalarView()
        for run in scalarRuns(of: pattern) where run.scalars.count > longest.count { longest = run.scalars }
        return String(longest)
    }

    /// Every maximal run of consecutive literal scalars among the parts every match goes through, in
    /// pattern order, with where the pattern pins it. Text inside a repeated, optional or alternated
    /// group is not required, so it ends a run; so does any other part (a class or an assertion).
    static func runs(of pattern: PatternNode) -> [LiteralRun] {
        scalarRuns(of: pattern).map { LiteralRun(bytes: Array(String($0.scalars).utf8), place: $0.place) }
    }

    private static func scalarRuns(of pattern: PatternNode) -> [(scalars: String.UnicodeScalarView, place: LiteralRun.Place)] {
        let parts = PatternNode.sequence(of: pattern)
        var runs: [(scalars: String.UnicodeScalarView, place: LiteralRun.Place)] = []
        var index = 0
        while index < parts.count {
            let start = index
            var scalars = String.UnicodeScalarView()
            while index < parts.count, case .literal(let scalar) = parts[index].kind {
                scalars.append(scalar)
                index += 1
            }
            guard !scalars.isEmpty else {
                index += 1
                continue
            }
            var place = LiteralRun.Place.anywhere
            if start == 1, case .assertion(.textStart) = parts[0].kind {
                place = .atStart
            } else if index < parts.count, case .assertion(let assertion) = parts[index].kind {
                if assertion == .textEnd { place = .atEnd }
                if assertion == .textEndOrFinalNewline { place = .atEndOrBeforeFinalNewline }
            }
            runs.append((scalars, place))
        }
        return runs
    }
}

/// A run of literal text every match of a pattern contains, and where the pattern pins it.
struct LiteralRun: Hashable, Sendable {
    /// Where in the text the run must be.
    enum Place: Hashable, Sendable {
        case anywhere
        /// Right after `^`/`\A` at the start of the pattern: the text starts with it.
        case atStart
        /// Right before `\z`: the text ends with it.
        case atEnd
        /// Right before `$`: the text ends with it, or with it and a final `\n`.
        case atEndOrBeforeFinalNewline
    }

    /// The run's UTF-8.
    var bytes: [UInt8]
    var place: Place
}
