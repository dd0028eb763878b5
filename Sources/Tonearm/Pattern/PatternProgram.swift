/// A pattern compiled to the instructions of a Thompson automaton: what ``PatternAutomaton`` runs.
struct PatternProgram: Sendable {
    /// The most instructions a pattern may compile to. The automaton does at most twice this many
    /// instruction visits per scalar; the bit-parallel steps a match runs off its table
    /// (``BitParallelAutomaton``) hold at most this many positions, 32 words (see docs/limits.md).
    /// Counted repetition multiplies: `(a{100}){100}` is 10,000.
    static let maximumSize = 2_000

    enum Instruction: Sendable {
        /// Consumes one scalar in the set (an index into ``PatternProgram/sets``).
        case consume(Int)
        /// Continues at both.
        case split(Int, Int)
        case jump(Int)
        /// Continues at the next instruction where the test holds.
        case assert(PatternAssertion)
        case match
    }

    var instructions: [Instruction] = []
    /// The consuming instructions' sets; emptied once ``PatternAutomaton`` has folded them into its
    /// ``InputClasses`` (membership bits), which is all matching reads.
    var sets: [ScalarRanges] = []
    /// Every match starts at the beginning of the text (each branch begins with `^` or `\A`), so the
    /// search never restarts at later positions.
    var isAnchoredAtStart = false
    /// Whether `\b` or `\B` appear (word context matters).
    var usesWordBoundary = false
    /// Whether `^` under `(?m)` appears (a preceding newline matters).
    var usesLineStart = false

    /// Compiles `root`, or refuses it when it would take more than ``maximumSize`` instructions.
    init(compiling root: PatternNode, pattern: String) throws(PatternProblem) {
        _ = try Self.size(of: root, pattern: pattern)
        isAnchoredAtStart = Self.startsAnchored(root)
        emit(root)
        instructions.append(.match)
    }

    /// The instructions `node` compiles to, refusing the first repetition that takes the total past the cap.
    private static func size(of node: PatternNode, pattern: String) throws(PatternProblem) -> Int {
        switch node.kind {
        case .empty: return 0
        case .literal, .scalars, .assertion: return 1
        case .concatenation(let items):
            var total = 0
            for item in items { total += try size(of: item, pattern: pattern); try check(total, at: item, pattern: pattern) }
            return total
        case .alternation(let branches):
            var total = 2 * (branches.count - 1)
            for branch in branches { total += try size(of: branch, pattern: pattern); try check(total, at: branch, pattern: pattern) }
            return total
        case .repetition(let body, let min, let max):
            let one = try size(of: body, pattern: pattern)
            // Each count is at most PatternParser.maximumRepeat and `one` at most maximumSize, so these
            // products stay far inside Int.
            let total: Int
            if let max {
                total = min * one + (max - min) * (one + 1)
            } else {
                total = min == 0 ? one + 2 : min * one + 1
            }
            try check(total, at: node, pattern: pattern)
            return total
        }
    }

    private static func check(_ size: Int, at node: PatternNode, pattern: String) throws(PatternProblem) {
        guard size > maximumSize else { return }
        let shown = Array(pattern.unicodeScalars).dropFirst(node.offset).prefix(40)
        var excerpt = String.UnicodeScalarView()
        excerpt.append(contentsOf: shown)
        throw PatternProblem(
            message: "the pattern is too large: `\(String(excerpt))\(shown.count == 40 ? "…" : "")` at offset \(node.offset) "
                + "takes it to \(size) instructions, more than the \(maximumSize) allowed (counted repetitions multiply); "
                + "repeat less, e.g. `+` or `{1,}` instead of a large count",
            offset: node.offset)
    }

    private static func startsAnchored(_ node: PatternNode) -> Bool {
        switch node.kind {
        case .assertion(.textStart): return true
        case .concatenation(let items): return items.first.map(startsAnchored) ?? false
        case .alternation(let branches): return branches.allSatisfy(startsAnchored)
        case .repetition(let body, let min, _): return min > 0 && startsAnchored(body)
        default: return false
        }
    }

    // MARK: Emission

    private mutating func emit(_ node: PatternNode) {
        switch node.kind {
        case .empty:
            break
        case .literal(let scalar):
            emitConsume(ScalarRanges(scalar))
        case .scalars(let set):
            emitConsume(set)
        case .assertion(let assertion):
            if assertion == .wordBoundary || assertion == .notWordBoundary { usesWordBoundary = true }
            if assertion == .lineStart { usesLineStart = true }
            instructions.append(.assert(assertion))
        case .concatenation(let items):
            for item in items { emit(item) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index == branches.count - 1 {
                    emit(branch)
                } else {
                    let split = instructions.count
                    instructions.append(.split(split + 1, -1))
                    emit(branch)
                    jumps.append(instructions.count)
                    instructions.append(.jump(-1))
                    instructions[split] = .split(split + 1, instructions.count)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let body, let min, let max):
            emitRepetition(body, min: min, max: max)
        }
    }

    private mutating func emitRepetition(_ body: PatternNode, min: Int, max: Int?) {
        guard let max else {
            if min == 0 {
                // loop: split(body, out); body; jump loop
                let loop = instructions.count
                instructions.append(.split(loop + 1, -1))
                emit(body)
                instructions.append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            } else {
                for _ in 0..<(min - 1) { emit(body) }
                let again = instructions.count
                emit(body)
                instructions.append(.split(again, instructions.count + 1))
            }
            return
        }
        for _ in 0..<min { emit(body) }
        // Each optional copy: split(copy, out); copy. Every split skips to the common exit.
        var splits: [Int] = []
        for _ in 0..<(max - min) {
            splits.append(instructions.count)
            instructions.append(.split(instructions.count + 1, -1))
            emit(body)
        }
        for split in splits { instructions[split] = .split(split + 1, instructions.count) }
    }

    private mutating func emitConsume(_ set: ScalarRanges) {
        instructions.append(.consume(sets.count))
        sets.append(set)
    }
}
