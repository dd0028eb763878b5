/// A pattern compiled to the instructions of a Thompson automaton: what ``PatternAutomaton`` runs.
struct PatternProgram: Sendable, Hashable {
    /// The most instructions a pattern may compile to. The automaton does at most twice this many
    /// instruction visits per scalar; the bit-parallel steps a match runs off its table
    /// (``BitParallelAutomaton``) hold at most this many positions, 32 words (see docs/limits.md).
    /// Counted repetition multiplies: `(a{100}){100}` is 10,000.
    static let maximumSize = 2_000

    /// Positions and set numbers are 32-bit (the size cap keeps them far below): 12 bytes an
    /// instruction instead of 24, for rule sets of thousands of patterns.
    enum Instruction: Sendable, Hashable {
        /// Consumes one scalar in the set (an index into ``PatternProgram/sets``).
        case consume(Int32)
        /// Continues at both.
        case split(Int32, Int32)
        case jump(Int32)
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
        try self.init(compiling: root, pattern: pattern, emitting: nil)
    }

    /// Compiles `root`, refused as ``init(compiling:pattern:)`` refuses it; with `rest`, emits only
    /// `rest`, the part of an anchored `root` after its literal prefix (``LiteralPrefix/split(_:)``),
    /// anchored where the prefix ends: ``LinearPattern`` compares the prefix as bytes, so its
    /// instructions, input classes and table states would never be read.
    init(compiling root: PatternNode, pattern: String, emitting rest: PatternNode?) throws(PatternProblem) {
        let size = try Self.size(of: root, pattern: pattern)
        let emitted = rest ?? root
        isAnchoredAtStart = rest != nil || Self.startsAnchored(root)
        // Exactly sized (the count is the emitted one): appending would leave up to twice the room.
        instructions.reserveCapacity((rest == nil ? size : try Self.size(of: emitted, pattern: pattern)) + 1)
        emit(emitted)
        instructions.append(.match)
    }

    /// Refuses `root` as compiling it would (more than ``maximumSize`` instructions), without emitting it.
    static func checkSize(of root: PatternNode, pattern: String) throws(PatternProblem) {
        _ = try size(of: root, pattern: pattern)
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
                    instructions.append(.split(Int32(truncatingIfNeeded: split + 1), -1))
                    emit(branch)
                    jumps.append(instructions.count)
                    instructions.append(.jump(-1))
                    instructions[split] = .split(Int32(truncatingIfNeeded: split + 1), end)
                }
            }
            for jump in jumps { instructions[jump] = .jump(end) }
        case .repetition(let body, let min, let max):
            emitRepetition(body, min: min, max: max)
        }
    }

    private mutating func emitRepetition(_ body: PatternNode, min: Int, max: Int?) {
        guard let max else {
            if min == 0 {
                // loop: split(body, out); body; jump loop
                let loop = instructions.count
                instructions.append(.split(Int32(truncatingIfNeeded: loop + 1), -1))
                emit(body)
                instructions.append(.jump(Int32(truncatingIfNeeded: loop)))
                instructions[loop] = .split(Int32(truncatingIfNeeded: loop + 1), end)
            } else {
                for _ in 0..<(min - 1) { emit(body) }
                let again = instructions.count
                emit(body)
                instructions.append(.split(Int32(truncatingIfNeeded: again), end &+ 1))
            }
            return
        }
        for _ in 0..<min { emit(body) }
        // Each optional copy: split(copy, out); copy. Every split skips to the common exit.
        var splits: [Int] = []
        for _ in 0..<(max - min) {
            splits.append(instructions.count)
            instructions.append(.split(end &+ 1, -1))
            emit(body)
        }
        for split in splits { instructions[split] = .split(Int32(truncatingIfNeeded: split + 1), end) }
    }

    private mutating func emitConsume(_ set: ScalarRanges) {
        instructions.append(.consume(Int32(truncatingIfNeeded: sets.count)))
        sets.append(set)
    }

    /// The position of the next instruction emitted (the size cap keeps it far inside `Int32`).
    private var end: Int32 { Int32(truncatingIfNeeded: instructions.count) }
}
