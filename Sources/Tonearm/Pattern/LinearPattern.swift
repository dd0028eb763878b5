/// A regular expression compiled for matching in time linear in the text: the one way a rule's pattern
/// (URL, path, query, header and body conditions; rule files, stub folders and bundles, WireMock
/// mappings) is checked and run.
///
/// Matching never backtracks: it advances every possible position in the pattern together, one scalar at
/// a time (a Thompson automaton), through a table built ahead (``PatternDFA``: one read per scalar for the
/// common shapes) and, when a match leaves it, through bit-parallel steps (``BitParallelAutomaton``:
/// a bounded number of word operations per scalar, however many positions are live). The program size is
/// capped (``PatternProgram/maximumSize``), which caps a step: at most 32 words of positions, tens of
/// nanoseconds per scalar (docs/limits.md). Constructs that need backtracking are refused when the
/// pattern compiles, naming the construct and its offset. docs/limits.md describes the syntax and semantics.
package struct LinearPattern: Sendable {
    /// The pattern as written.
    package let source: String
    /// The literal text every match starts with (``LiteralPrefix``: `https://api.example.com/v1/` of
    /// `^https://api\.example\.com/v1/…`), compared as bytes; the program, its table and its
    /// bit-parallel steps are compiled from the rest of the pattern alone, anchored where the prefix
    /// ends. Empty when the pattern has none. For a rule set of URL patterns sharing a host this is most
    /// of each pattern: compiling it as instructions cost a table state, a program instruction and an
    /// input class per byte, the most memory a rule took.
    let prefix: [UInt8]
    /// What precedes the first scalar the program reads: the start of the text, or the prefix's last scalar.
    let startPrevious: PatternAutomaton.Previous
    let automaton: PatternAutomaton
    let dfa: PatternDFA
    /// The steps a match runs once it leaves the shared table; built only when the table is incomplete
    /// (a complete table is never left).
    let bitParallel: BitParallelAutomaton?

    /// Compiles `pattern`, or says why it cannot be used (with the offset of the problem).
    package init(_ pattern: String) throws(PatternProblem) {
        try self.init(pattern, separatingPrefix: true)
    }

    /// `init(_:)`; with `separatingPrefix: false`, the whole pattern is compiled as instructions (the
    /// reference the tests compare the byte comparison of ``prefix`` with).
    /// With `limitingStepCost: false`, a pattern over ``StepCostModel``'s limit compiles too (for the
    /// benchmarks that measure what the limit refuses, and the tests).
    init(_ pattern: String, separatingPrefix: Bool, limitingStepCost: Bool = true) throws(PatternProblem) {
        var cache = PatternCache()
        try self.init(parsed: try PatternParser.parse(pattern), source: pattern, separatingPrefix: separatingPrefix,
                      cache: &cache, limitingStepCost: limitingStepCost)
    }

    /// Compiles `syntax`, the parsed `source` (for a caller that reads the tree too, as a rule's
    /// prefilters do, so the pattern is parsed once), sharing the table and steps of an equal program
    /// compiled before with `cache`.
    init(parsed syntax: PatternNode, source: String, separatingPrefix: Bool = true, cache: inout PatternCache,
         limitingStepCost: Bool = true) throws(PatternProblem) {
        self.source = source
        let split = separatingPrefix ? LiteralPrefix.split(syntax) : nil
        let program = PatternAutomaton(try PatternProgram(compiling: syntax, pattern: source, emitting: split?.rest))
        prefix = split.map { Array(String($0.prefix).utf8) } ?? []
        startPrevious = split?.prefix.last.map(program.previous(afterScalar:)) ?? .start
        let compiled = cache.compile(program, startPrevious: startPrevious)
        if limitingStepCost, let steps = compiled.bitParallel, steps.stepCost > StepCostModel.maximumPicoseconds {
            throw Self.tooCostly(source, steps)
        }
        automaton = compiled.automaton
        dfa = compiled.dfa
        bitParallel = compiled.bitParallel
    }

    /// The refusal of a pattern whose bit-parallel step would cost more than ``StepCostModel`` allows:
    /// its table could not be built whole, so a long text can leave it, and then 80 KB would take more
    /// than 5 ms.
    private static func tooCostly(_ source: String, _ steps: BitParallelAutomaton) -> PatternProblem {
        let shown = Array(source.unicodeScalars).prefix(60)
        var excerpt = String.UnicodeScalarView()
        excerpt.append(contentsOf: shown)
        let perScalar = (steps.stepCost + 500) / 1_000
        // Tenths of a millisecond over the budget's text (the cost is at most millions of picoseconds:
        // far inside Int).
        let tenths = steps.stepCost * StepCostModel.budgetScalars / 100_000_000
        return PatternProblem(
            message: "the pattern is too costly to match: `\(String(excerpt))\(source.unicodeScalars.count > 60 ? "…" : "")` "
                + "has too many states for its table, and off the table each character costs about \(perScalar) ns "
                + "(\(steps.stepWords) word operations over \(steps.stopCount) positions; about \(tenths / 10).\(tenths % 10) ms on an 80 KB URL), "
                + "more than the \(StepCostModel.maximumPicoseconds / 1_000) ns allowed (5 ms on an 80 KB URL); "
                + "repeat a smaller group, or fewer optional parts, alternatives and assertions inside a counted repetition",
            offset: nil)
    }

    /// A bound on the work one scalar of text can cost, in automaton instruction visits (12–20 ns each
    /// here): 0 when the pattern's whole table was built at load (every match then reads one table cell
    /// per byte), else a bit-parallel step's word operations (``BitParallelAutomaton/stepWords``, the same
    /// however many positions are live) over ``wordOperationsPerVisit``, at least 1. The server reads it
    /// to decide which requests to match away from its event loops.
    package var worstVisitsPerScalar: Int {
        guard let bitParallel else { return 0 }
        return max(1, (bitParallel.stepWords + Self.wordOperationsPerVisit - 1) / Self.wordOperationsPerVisit)
    }

    /// Word operations of a bit-parallel step counted as one automaton instruction visit: measured at
    /// 0.4–0.6 ns per word operation for the widest patterns of docs/benchmarks-history.md and up to about
    /// 1.2 ns for patterns whose steps are mostly short shifts ("Worst cases in bit-parallel steps"),
    /// against 12–20 ns per visit; 8 keeps the bound above the cost.
    static let wordOperationsPerVisit = 8

    /// Whether the pattern matches somewhere in `text` (as `text.contains(regex)` does; anchor with `^`
    /// and `$` for the whole text).
    package func matches(_ text: String) -> Bool {
        var visits = 0
        return matches(text, usingTable: true, visits: &visits)
    }

    /// `matches(_:)` for a text already known to start with ``prefix`` (a rule's literal prefix, which
    /// the rule set compares before running the pattern): the comparison is not made again.
    func matches(givenPrefix text: String) -> Bool {
        var visits = 0
        return matches(text, usingTable: true, visits: &visits, prefixKnown: true)
    }

    /// `matches(_:)`, counting the work done (table reads, automaton instruction visits, or the word
    /// operations of bit-parallel steps); `usingTable: false` runs the automaton alone (the reference the
    /// tests compare with).
    func matches(_ text: String, usingTable: Bool, visits: inout Int, prefixKnown: Bool = false) -> Bool {
        withUTF8(text) { bytes in
            guard prefixKnown || hasPrefix(bytes) else { return false }
            return run(bytes, usingTable: usingTable, visits: &visits)
        }
    }

    /// Whether `bytes` start with ``prefix``.
    @inline(__always)
    private func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = prefix.count
        guard count > 0 else { return true }
        guard bytes.count >= count else { return false }
        return prefix.withUnsafeBufferPointer { prefix in
            for index in 0..<count where prefix[index] != bytes[index] { return false }
            return true
        }
    }

    /// `matches(_:)` on the bit-parallel steps alone, from the start of the text, whether or not the
    /// pattern's table is complete: what a match that leaves the table runs, for the tests.
    func matchesBitParallel(_ text: String, visits: inout Int) -> Bool {
        let steps = bitParallel ?? BitParallelAutomaton(automaton)
        return withUTF8(text) { bytes in
            guard hasPrefix(bytes) else { return false }
            var state = steps.startState()
            return runBitParallel(steps, bytes, from: prefix.count, state: &state, previous: startPrevious, visits: &visits)
        }
    }

    private func withUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable(body) { return found }
        var copy = text
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(body) ?? false
    }

    /// The column of the scalar at `position` (`\n` as the text's last scalar has its own) and its length.
    @inline(__always)
    private func column(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (column: Int, length: Int) {
        let (value, length) = Self.decode(bytes, at: position)
        if value == 10, position + length == bytes.count { return (automaton.finalNewlineColumn, length) }
        return (automaton.classes.classOf(value), length)
    }

    /// Runs the program over `bytes` after the prefix (which they are known to start with).
    private func run(_ bytes: UnsafeBufferPointer<UInt8>, usingTable: Bool, visits: inout Int) -> Bool {
        let count = bytes.count
        guard usingTable else { return runAutomaton(bytes, visits: &visits) }
        let columns = dfa.columns
        var state: Int32 = 0
        var position = prefix.count
        while position < count {
            let (column, length) = column(bytes, at: position)
            visits += 1
            let target = dfa.target(Int(state) * columns + column)
            if target >= 0 {
                state = target
                position += length
                continue
            }
            if target == PatternDFA.matched { return true }
            if target == PatternDFA.dead { return false }
            // Off the shared table (only an incomplete table has unknown cells, and then `bitParallel`
            // was built): the rest of the text runs on bit-parallel steps from this state's threads.
            guard let steps = bitParallel else { break }
            var bits = steps.state(threads: dfa.threads[Int(state)])
            return runBitParallel(steps, bytes, from: position, state: &bits, previous: dfa.previous(state), visits: &visits)
        }
        return dfa.acceptsAtEnd(state)
    }

    /// The rest of the text from `position` on bit-parallel steps, from `state` preceded by `previous`.
    private func runBitParallel(
        _ steps: BitParallelAutomaton, _ bytes: UnsafeBufferPointer<UInt8>, from position: Int,
        state: inout BitParallelAutomaton.State, previous: PatternAutomaton.Previous, visits: inout Int
    ) -> Bool {
        let count = bytes.count
        let newlineClass = automaton.classes.classOf(10)
        let finalNewline = automaton.finalNewlineColumn
        var previous = previous
        var position = position
        while position < count {
            let (column, length) = column(bytes, at: position)
            visits &+= steps.stepWords
            let inputClass = column == finalNewline ? newlineClass : column
            if steps.step(&state, previous: previous, next: automaton.next(forColumn: column), inputClass: inputClass) {
                return true
            }
            previous = automaton.previous(afterColumn: column)
            if steps.isAnchoredAtStart, steps.isEmpty(state) { return false }
            position += length
        }
        visits &+= steps.stepWords
        return steps.step(&state, previous: previous, next: .end, inputClass: nil)
    }

    /// The bare automaton from the end of the prefix: the reference the tests compare the tables and the
    /// bit-parallel steps with.
    private func runAutomaton(_ bytes: UnsafeBufferPointer<UInt8>, visits: inout Int) -> Bool {
        var workspace = PatternAutomaton.Workspace(size: automaton.size)
        var threads = automaton.startThreads(&workspace)
        var following = SparseSet(capacity: automaton.size)
        var previous = startPrevious
        var position = prefix.count
        while position < bytes.count {
            let (column, length) = column(bytes, at: position)
            let matched = automaton.step(threads, previous: previous, column: column, into: &following, &workspace)
            visits = visits &+ workspace.visits
            workspace.visits = 0
            if matched { return true }
            swap(&threads, &following)
            previous = automaton.previous(afterColumn: column)
            if threads.isEmpty, automaton.program.isAnchoredAtStart { return false }
            position += length
        }
        let matched = automaton.step(threads, previous: previous, column: nil, into: &following, &workspace)
        visits = visits &+ workspace.visits
        return matched
    }

    /// The scalar value at `position` of valid UTF-8 (a Swift string's), and its length in bytes.
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (UInt32, Int) {
        let lead = bytes[position]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        // A string's UTF-8 is always complete; the guard only keeps a truncated buffer from being read past.
        guard position + length <= bytes.count else { return (0xFFFD, bytes.count - position) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
        return (value, length)
    }
}
