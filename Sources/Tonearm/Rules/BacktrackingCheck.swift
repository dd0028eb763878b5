/// Refuses, when rules load, patterns whose matching time can explode with the length of the text.
///
/// Swift's `Regex` backtracks and cannot be interrupted, so one catastrophic pattern would stall every
/// request behind it. Two shapes are refused:
///
/// - **Exponential**: a repeated sub-expression that can split the same text into repetitions in more
///   than one way, either through a quantifier inside it that can take what the next repetition starts
///   with (`(a+)+`, `(\w+\s?)*`, `(.*a)*`) or through alternatives that can match the same text
///   (`(a|aa)+`).
/// - **Polynomial of degree three or more**: a chain of unbounded quantifiers, each able to take the
///   characters between it and the next (`.*a.*b.*c`), where a failed match tries every way of
///   splitting the text between them. A pattern without `^` is tried from every position, which counts
///   as one more link. Degree two (`^/.*a.*b$`, `a.*b`) is allowed: common in real rules, and bounded by
///   the URL length; see docs/limits.md for the measured cost.
///
/// Quantifiers separated by text they cannot take (`^/users/[^/]+/items/\d+$`) never chain; possessive
/// quantifiers and atomic groups give nothing back and are never counted.
enum BacktrackingCheck {
    /// The highest polynomial degree allowed (quadratic).
    static let maximumDegree = 2
    /// A repeat bounded above this many times is treated like an unbounded one.
    static let boundedRepeatLimit = 16

    /// Why `pattern` can backtrack without a useful bound, or `nil` when it cannot.
    static func problem(in pattern: String) -> String? {
        let structure = RegexStructure(parsing: pattern)
        return exponentialProblem(in: structure) ?? polynomialProblem(in: structure)
    }

    // MARK: Exponential

    private static func exponentialProblem(in node: RegexStructure) -> String? {
        switch node {
        case .character, .assertion:
            return nil
        case .sequence(let items):
            return items.lazy.compactMap(exponentialProblem(in:)).first
        case .alternation(let branches, _):
            return branches.lazy.compactMap(exponentialProblem(in:)).first
        case .atomic(let body):
            return exponentialProblem(in: body)
        case .repeated(let body, _, let max, let possessive, let source):
            if !possessive, max.map({ $0 > 1 }) ?? true {
                let taken = absorbingTail(of: body, followedBy: Rest(isNullable: true, characters: .empty))
                if taken.overlaps(body.firstCharacters) {
                    return "nested quantifier `\(source)` can backtrack exponentially: a quantifier inside it can "
                        + "take the characters the next repetition starts with"
                }
                if let alternation = ambiguousAlternation(in: body) {
                    return "alternation `\(alternation)` inside the repeated `\(source)` can backtrack exponentially: "
                        + "its branches can match the same text"
                }
            }
            return exponentialProblem(in: body)
        }
    }

    /// What follows a sub-expression up to the end of the repetition being analysed.
    private struct Rest {
        var isNullable: Bool
        var characters: ScalarSet
    }

    /// Characters taken by variable quantifiers in `node` that can end a match of it: either nothing
    /// required follows them, or what follows is characters they could take as well.
    private static func absorbingTail(of node: RegexStructure, followedBy rest: Rest) -> ScalarSet {
        switch node {
        case .character, .assertion, .atomic:
            return .empty
        case .sequence(let items):
            var taken = ScalarSet.empty
            var after = rest
            for item in items.reversed() {
                taken.formUnion(absorbingTail(of: item, followedBy: after))
                after = Rest(isNullable: after.isNullable && item.isNullable, characters: after.characters.union(item.characters))
            }
            return taken
        case .alternation(let branches, _):
            return branches.reduce(.empty) { $0.union(absorbingTail(of: $1, followedBy: rest)) }
        case .repeated(let body, let min, let max, let possessive, _):
            guard !possessive else { return .empty }
            let characters = body.characters
            var taken = ScalarSet.empty
            if max.map({ $0 > min }) ?? true, rest.isNullable || rest.characters.isSubset(of: characters) {
                taken = characters
            }
            let inner = max == 1 ? rest : Rest(isNullable: rest.isNullable, characters: rest.characters.union(characters))
            return taken.union(absorbingTail(of: body, followedBy: inner))
        }
    }

    /// An alternation in `node` (outside nested atomic groups) with two branches that can begin with the
    /// same run of characters, as written.
    private static func ambiguousAlternation(in node: RegexStructure) -> String? {
        switch node {
        case .character, .assertion, .atomic:
            return nil
        case .sequence(let items):
            return items.lazy.compactMap(ambiguousAlternation(in:)).first
        case .repeated(let body, _, _, _, _):
            return ambiguousAlternation(in: body)
        case .alternation(let branches, let source):
            let prefixes = branches.map(LeadingCharacters.init)
            for (offset, prefix) in prefixes.enumerated() {
                if prefixes[(offset + 1)...].contains(where: prefix.canMatchSameText) { return source }
            }
            return branches.lazy.compactMap(ambiguousAlternation(in:)).first
        }
    }

    /// The single characters a branch starts with, up to the first part that is not one character.
    private struct LeadingCharacters {
        var sets: [ScalarSet] = []

        init(_ node: RegexStructure) {
            _ = collect(node)
        }

        /// Appends `node`'s leading characters; `false` once a part that is not a single character is met.
        private mutating func collect(_ node: RegexStructure) -> Bool {
            switch node {
            case .character(let set):
                sets.append(set)
                return true
            case .assertion:
                return true
            case .sequence(let items):
                for item in items where !collect(item) { return false }
                return true
            case .alternation, .repeated, .atomic:
                return false
            }
        }

        /// Whether both can start with the same text, as far as the shorter one is known.
        func canMatchSameText(_ other: LeadingCharacters) -> Bool {
            zip(sets, other.sets).allSatisfy { $0.overlaps($1) }
        }
    }

    // MARK: Polynomial

    private struct Link {
        var characters: ScalarSet
        var degree: Int
        /// The quantifiers of the longest chain ending here, as written.
        var chain: [String]
    }

    private static func polynomialProblem(in node: RegexStructure) -> String? {
        if case .alternation(let branches, _) = node {
            return branches.lazy.compactMap { polynomialProblem(inSequence: flattened($0), searched: true) }.first
        }
        return polynomialProblem(inSequence: flattened(node), searched: true)
    }

    /// Checks one sequence of parts; `searched` when a pattern without `^` is tried from every position.
    private static func polynomialProblem(inSequence parts: [RegexStructure], searched: Bool) -> String? {
        let isAnchored: Bool
        if case .assertion(.start) = parts.first { isAnchored = true } else { isAnchored = !searched }
        var links: [(position: Int, link: Link)] = []
        if !isAnchored {
            links.append((-1, Link(characters: .all, degree: 1, chain: ["the search for a starting position (no `^`)"])))
        }
        // Worked out once per part, so a long pattern costs parts × loops rather than parts² × loops.
        let partCharacters = parts.map(\.characters)
        let endings = Endings(parts)
        var worst: Link?
        for (position, part) in parts.enumerated() {
            if let inner = nestedProblem(in: part) { return inner }
            guard let (characters, source) = loop(part) else { continue }
            var link = Link(characters: characters, degree: 1, chain: ["`\(source)`"])
            var between = ScalarSet.empty
            var cursor = position - 1
            for (earlier, previous) in links.reversed() {
                while cursor > earlier {
                    between.formUnion(partCharacters[cursor])
                    cursor -= 1
                }
                let shared = previous.characters.intersection(characters)
                if previous.degree + 1 > link.degree, !shared.isEmpty, between.isSubset(of: shared) {
                    link.degree = previous.degree + 1
                    link.chain = previous.chain + ["`\(source)`"]
                }
            }
            links.append((position, link))
            if !endings.finishesTrivially(characters, at: position), link.degree > (worst?.degree ?? 0) {
                worst = link
            }
        }
        guard let worst, worst.degree > maximumDegree else { return nil }
        let listed = worst.chain.count <= 4
            ? worst.chain.joined(separator: ", ")
            : worst.chain.prefix(3).joined(separator: ", ") + " … (\(worst.chain.count) in all)"
        return "quantifiers \(listed) can each take the characters between them, "
            + "so a failing match tries every way of splitting the text between them (time grows with the "
            + "length of the text to the power \(worst.degree)); make them exclusive, e.g. `[^/]*` instead of `.*`"
    }

    /// Chains inside a group that is repeated, optional or alternated, checked on their own.
    private static func nestedProblem(in part: RegexStructure) -> String? {
        switch part {
        case .repeated(let body, _, _, _, _), .atomic(let body):
            return polynomialProblem(inSequence: flattened(body), searched: false)
        case .alternation(let branches, _):
            return branches.lazy.compactMap { polynomialProblem(inSequence: flattened($0), searched: false) }.first
        case .character, .assertion, .sequence:
            return nil
        }
    }

    /// The characters a part can take an unbounded number of, with its text, when it can backtrack.
    private static func loop(_ part: RegexStructure) -> (ScalarSet, String)? {
        switch part {
        case .repeated(_, _, let max, let possessive, let source):
            guard !possessive else { return nil }
            if max.map({ $0 > boundedRepeatLimit }) ?? true { return (part.characters, source) }
            return containsLoop(part) ? (part.characters, source) : nil
        case .alternation(_, let source):
            return containsLoop(part) ? (part.characters, source) : nil
        case .character, .assertion, .sequence, .atomic:
            return nil
        }
    }

    private static func containsLoop(_ node: RegexStructure) -> Bool {
        switch node {
        case .character, .assertion, .atomic: return false
        case .sequence(let items): return items.contains(where: containsLoop)
        case .alternation(let branches, _): return branches.contains(where: containsLoop)
        case .repeated(let body, _, let max, let possessive, _):
            return !possessive && (max.map { $0 > boundedRepeatLimit } ?? true) || containsLoop(body)
        }
    }

    /// What follows each part of a sequence, for telling whether a quantifier there is ever backtracked into.
    private struct Endings {
        /// Whether only optional parts without assertions, or end anchors, follow position `p` (index p).
        var onlyOptionalAfter: [Bool]
        /// Whether an end anchor is among them.
        var endAnchorAfter: [Bool]

        init(_ parts: [RegexStructure]) {
            onlyOptionalAfter = Array(repeating: true, count: parts.count)
            endAnchorAfter = Array(repeating: false, count: parts.count)
            var optional = true, anchor = false
            for position in parts.indices.reversed() {
                onlyOptionalAfter[position] = optional
                endAnchorAfter[position] = anchor
                if case .assertion(.end) = parts[position] {
                    anchor = true
                } else {
                    optional = optional && parts[position].isNullable && !parts[position].hasAssertion
                }
            }
        }

        /// Whether a quantifier taking `characters` at `position` always lets the rest of the pattern match
        /// once it has run as far as it can, so it is never backtracked into: only optional parts follow,
        /// or `$` after `.*`.
        func finishesTrivially(_ characters: ScalarSet, at position: Int) -> Bool {
            onlyOptionalAfter[position] && (!endAnchorAfter[position] || ScalarSet.dot.isSubset(of: characters))
        }
    }

    /// The parts of a sequence, with plain groups opened.
    private static func flattened(_ node: RegexStructure) -> [RegexStructure] {
        switch node {
        case .sequence(let items): return items.flatMap(flattened)
        case .repeated(let body, 1, 1, _, _): return flattened(body)
        default: return [node]
        }
    }
}
