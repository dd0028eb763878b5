/// A regular expression compiled for matching in time linear in the text: the one way a rule's pattern
/// (URL, path, query, header and body conditions; rule files, stub folders and bundles, WireMock
/// mappings) is checked and run.
///
/// Matching never backtracks: it advances every possible position in the pattern together, one scalar at
/// a time (a Thompson automaton), through a table built ahead for the common shapes (``PatternDFA``). The
/// work for a text of n scalars is at most n × the program size, and the program size is capped
/// (``PatternProgram/maximumSize``). Constructs that need backtracking are refused when the pattern
/// compiles, naming the construct and its offset. docs/limits.md describes the syntax and semantics.
package struct LinearPattern: Sendable {
    /// The pattern as written.
    package let source: String
    /// The parsed pattern, for the rule prefilters.
    let syntax: PatternNode
    let automaton: PatternAutomaton
    let dfa: PatternDFA

    /// Compiles `pattern`, or says why it cannot be used (with the offset of the problem).
    package init(_ pattern: String) throws(PatternProblem) {
        source = pattern
        syntax = try PatternParser.parse(pattern)
        automaton = PatternAutomaton(try PatternProgram(compiling: syntax, pattern: pattern))
        dfa = PatternDFA(automaton)
    }

    /// Whether the pattern matches somewhere in `text` (as `text.contains(regex)` does; anchor with `^`
    /// and `$` for the whole text).
    package func matches(_ text: String) -> Bool {
        var visits = 0
        return matches(text, usingTable: true, visits: &visits)
    }

    /// `matches(_:)`, counting the work done; `usingTable: false` runs the automaton alone (the worst case).
    func matches(_ text: String, usingTable: Bool, visits: inout Int) -> Bool {
        var utf8 = text.utf8
        if let found = utf8.withContiguousStorageIfAvailable({ run($0, usingTable: usingTable, visits: &visits) }) {
            return found
        }
        var copy = text
        copy.makeContiguousUTF8()
        utf8 = copy.utf8
        return utf8.withContiguousStorageIfAvailable { run($0, usingTable: usingTable, visits: &visits) } ?? false
    }

    private func run(_ bytes: UnsafeBufferPointer<UInt8>, usingTable: Bool, visits: inout Int) -> Bool {
        let classes = automaton.classes
        let columns = dfa.columns
        let count = bytes.count
        var state: Int32 = usingTable ? 0 : PatternDFA.unknown
        // Sized for the program only once the automaton runs: a match that stays on the table allocates nothing.
        var workspace = PatternAutomaton.Workspace(size: 0)
        var threads = SparseSet(capacity: 0)
        var following = SparseSet(capacity: 0)
        var previous = PatternAutomaton.Previous.start
        var stepsSinceTableCheck = 0
        if !usingTable {
            workspace = PatternAutomaton.Workspace(size: automaton.size)
            threads = automaton.startThreads(&workspace)
            following = SparseSet(capacity: automaton.size)
        }
        var position = 0
        while position < count {
            let (value, length) = Self.decode(bytes, at: position)
            var column = classes.classOf(value)
            if value == 10, position + length == count { column = automaton.finalNewlineColumn }
            if state >= 0 {
                visits += 1
                let target = dfa.transitions[Int(state) * columns + column]
                if target >= 0 {
                    state = target
                    if dfa.isDead[Int(target)] { return false }
                    position += length
                    continue
                }
                if target == PatternDFA.matched { return true }
                // Off the table: continue on the automaton from this state's threads.
                if following.capacity == 0 {
                    workspace = PatternAutomaton.Workspace(size: automaton.size)
                    threads = SparseSet(capacity: automaton.size)
                    following = SparseSet(capacity: automaton.size)
                }
                threads.removeAll()
                for thread in dfa.threads[Int(state)] { _ = threads.insert(thread) }
                previous = dfa.previous[Int(state)]
                state = PatternDFA.unknown
            }
            let matched = automaton.step(threads, previous: previous, column: column, into: &following, &workspace)
            visits = visits &+ workspace.visits
            workspace.visits = 0
            if matched { return true }
            swap(&threads, &following)
            previous = automaton.previous(afterColumn: column)
            if threads.isEmpty, automaton.program.isAnchoredAtStart { return false }
            position += length
            // Back onto the table when this set of threads is a state in it; checked every so often, as
            // the lookup sorts the threads.
            stepsSinceTableCheck += 1
            if usingTable, stepsSinceTableCheck >= 16 {
                stepsSinceTableCheck = 0
                if let known = dfa.index[PatternDFA.Key(threads: threads.elements.sorted(), previous: previous)] { state = known }
            }
        }
        if state >= 0 { return dfa.acceptsAtEnd[Int(state)] }
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
