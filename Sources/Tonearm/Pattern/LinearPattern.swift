/// A regular expression compiled for matching in time linear in the text: the one way a rule's pattern
/// (URL, path, query, header and body conditions; rule files, stub folders and bundles, WireMock
/// mappings) is checked and run.
///
/// Matching never backtracks: it advances every possible position in the pattern together, one scalar at
/// a time (a Thompson automaton), through a table built ahead for the common shapes (``PatternDFA``) and
/// one the match builds as it goes (``LazyStates``). The work for a text of n scalars is at most n × the
/// program size, and the program size is capped (``PatternProgram/maximumSize``); that bounds it, but
/// not to milliseconds for every pattern on long text (docs/limits.md). Constructs that need backtracking are refused when the pattern
/// compiles, naming the construct and its offset. docs/limits.md describes the syntax and semantics.
package struct LinearPattern: Sendable {
    /// The pattern as written.
    package let source: String
    let automaton: PatternAutomaton
    let dfa: PatternDFA

    /// Compiles `pattern`, or says why it cannot be used (with the offset of the problem).
    package init(_ pattern: String) throws(PatternProblem) {
        source = pattern
        let syntax = try PatternParser.parse(pattern)
        automaton = PatternAutomaton(try PatternProgram(compiling: syntax, pattern: pattern))
        dfa = PatternDFA(automaton)
    }

    /// The parsed pattern, for the rule prefilters: parsed again when asked (at load), since keeping the
    /// tree of every pattern in a set of thousands would cost more than its tables.
    var syntax: PatternNode {
        // `init` parsed the same text, so this cannot fail; the empty tree only satisfies the type.
        (try? PatternParser.parse(source)) ?? PatternNode(kind: .empty, offset: 0)
    }

    /// A bound on the instruction visits one scalar of text can cost: 0 when the pattern's whole table
    /// was built at load (every match then reads one table cell per byte), else twice the program size
    /// (a step visits each instruction at most once, and the end-of-text check once more). The server
    /// reads it to decide which requests to match away from its event loops.
    package var worstVisitsPerScalar: Int { dfa.isComplete ? 0 : 2 * automaton.size }

    /// Whether the pattern matches somewhere in `text` (as `text.contains(regex)` does; anchor with `^`
    /// and `$` for the whole text).
    package func matches(_ text: String) -> Bool {
        var visits = 0
        return matches(text, usingTable: true, visits: &visits)
    }

    /// The table state reached from the start over `prefix`, when the whole walk stays on the table:
    /// matching a text known to start with `prefix` (a rule's literal prefix, already compared) can
    /// start there (``matches(_:startingAt:)``) instead of reading the prefix again. `nil` when the walk
    /// leaves the table, ends in a dead state, or crosses a `\n` (whose column depends on what follows).
    func tableState(after prefix: String) -> Int32? {
        var state: Int32 = 0
        for scalar in prefix.unicodeScalars {
            guard scalar.value != 10 else { return nil }
            let target = dfa.target(Int(state) * dfa.columns + automaton.classes.classOf(scalar.value))
            guard target >= 0, !dfa.isDead[Int(target)] else { return nil }
            state = target
        }
        return state
    }

    /// `matches(_:)` for a text that starts with a prefix of `start.bytes` UTF-8 bytes whose table state
    /// is `start.state` (``tableState(after:)``).
    func matches(_ text: String, startingAt start: (state: Int32, bytes: Int)) -> Bool {
        var visits = 0
        return matches(text, usingTable: true, visits: &visits, start: start)
    }

    /// `matches(_:)`, counting the work done; `usingTable: false` runs the automaton alone (the worst case).
    /// `ownCells` sizes the match's own table (smaller in tests, to reach its clearing).
    func matches(
        _ text: String, usingTable: Bool, visits: inout Int, ownCells: Int = LazyStates.maximumCells,
        start: (state: Int32, bytes: Int) = (0, 0)
    ) -> Bool {
        var utf8 = text.utf8
        if let found = utf8.withContiguousStorageIfAvailable({
            run($0, usingTable: usingTable, visits: &visits, ownCells: ownCells, start: start)
        }) {
            return found
        }
        var copy = text
        copy.makeContiguousUTF8()
        utf8 = copy.utf8
        return utf8.withContiguousStorageIfAvailable {
            run($0, usingTable: usingTable, visits: &visits, ownCells: ownCells, start: start)
        } ?? false
    }

    private func run(
        _ bytes: UnsafeBufferPointer<UInt8>, usingTable: Bool, visits: inout Int, ownCells: Int, start: (state: Int32, bytes: Int)
    ) -> Bool {
        let classes = automaton.classes
        let columns = dfa.columns
        let count = bytes.count
        // Exactly one of these is in use: a state of the shared table, a state of this match's own
        // table, or (both negative) the bare automaton on `threads`.
        var state: Int32 = usingTable ? start.state : PatternDFA.unknown
        var lazyState: Int32 = PatternDFA.unknown
        // Built only when the match first leaves the shared table: a match that stays on it allocates nothing.
        var lazy: LazyStates?
        var workspace = PatternAutomaton.Workspace(size: 0)
        var threads = SparseSet(capacity: 0)
        var following = SparseSet(capacity: 0)
        var previous = PatternAutomaton.Previous.start
        var stepsSinceTableCheck = 0
        /// Continues on the automaton from a table state's threads.
        func resume(_ stateThreads: [Int], _ context: PatternAutomaton.Previous) {
            threads.removeAll()
            for thread in stateThreads { _ = threads.insert(thread) }
            previous = context
        }
        if !usingTable {
            workspace = PatternAutomaton.Workspace(size: automaton.size)
            threads = automaton.startThreads(&workspace)
            following = SparseSet(capacity: automaton.size)
        }
        var position = usingTable ? min(start.bytes, count) : 0
        while position < count {
            let (value, length) = Self.decode(bytes, at: position)
            var column = classes.classOf(value)
            if value == 10, position + length == count { column = automaton.finalNewlineColumn }
            // Where the automaton's step below should be remembered in this match's table.
            var origin = LazyStates.Origin.none
            if state >= 0 {
                visits += 1
                let target = dfa.target(Int(state) * columns + column)
                if target >= 0 {
                    state = target
                    if dfa.isDead[Int(target)] { return false }
                    position += length
                    continue
                }
                if target == PatternDFA.matched { return true }
                // Off the shared table: this match's table may know the step already.
                if lazy == nil {
                    lazy = LazyStates(columns: columns, sharedCells: dfa.transitions.count, maximumCells: ownCells)
                    workspace = PatternAutomaton.Workspace(size: automaton.size)
                    threads = SparseSet(capacity: automaton.size)
                    following = SparseSet(capacity: automaton.size)
                }
                let cell = Int(state) * columns + column
                // (A shared destination is a state whose own row the build budget left unexpanded.)
                if let known = lazy?.sharedExits[cell], known != PatternDFA.unknown {
                    (state, lazyState) = LazyStates.destination(known)
                    if state >= 0, dfa.isDead[Int(state)] { return false }
                    position += length
                    continue
                }
                resume(dfa.threads[Int(state)], dfa.previous[Int(state)])
                origin = .shared(cell)
                state = PatternDFA.unknown
            } else if lazyState >= 0, let table = lazy {
                visits += 1
                let cell = Int(lazyState) * columns + column
                let target = table.transitions[cell]
                if target != PatternDFA.unknown {
                    // Another state of this table, or back onto the shared one.
                    (state, lazyState) = LazyStates.destination(target)
                    if state >= 0, dfa.isDead[Int(state)] { return false }
                    position += length
                    continue
                }
                resume(table.threads[Int(lazyState)], table.previous[Int(lazyState)])
                origin = .lazy(cell)
                lazyState = PatternDFA.unknown
            }
            let matched = automaton.step(threads, previous: previous, column: column, into: &following, &workspace)
            visits = visits &+ workspace.visits
            workspace.visits = 0
            if matched { return true }
            swap(&threads, &following)
            previous = automaton.previous(afterColumn: column)
            if threads.isEmpty, automaton.program.isAnchoredAtStart { return false }
            position += length
            if var table = lazy, !table.gaveUp {
                // Find or add the state the step reached, and remember the step, so the next time this
                // state meets this class it is one table read (RE2's lazy DFA).
                lazy = nil  // `table` is the only reference while it changes: no copy on write.
                let key = PatternDFA.Key(threads: threads.elements.sorted(), previous: previous)
                if let known = dfa.index[key] {
                    state = known
                    table.remember(origin, LazyStates.firstShared - known)
                } else if let known = table.index[key] {
                    lazyState = known
                    table.remember(origin, known)
                } else if let added = table.add(key, scalarsSoFar: position) {
                    lazyState = added.state
                    // A full table was cleared to make room, and with it the state the step left.
                    if !added.cleared { table.remember(origin, added.state) }
                }
                lazy = table
                continue
            }
            // The bare automaton (tests, or a match whose own table gave up): back onto the shared
            // table when this set of threads is a state in it; checked every so often, as the lookup
            // sorts the threads.
            stepsSinceTableCheck += 1
            if usingTable, stepsSinceTableCheck >= 16 {
                stepsSinceTableCheck = 0
                if let known = dfa.index[PatternDFA.Key(threads: threads.elements.sorted(), previous: previous)] { state = known }
            }
        }
        if state >= 0 { return dfa.acceptsAtEnd[Int(state)] }
        if lazyState >= 0, let table = lazy { resume(table.threads[Int(lazyState)], table.previous[Int(lazyState)]) }
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

/// One match's own table of the states it meets off the shared ``PatternDFA`` (RE2's lazy DFA): a
/// pattern whose DFA is too big to build ahead (`(a|b)*a(a|b){12}` has 8,192 states) still runs mostly
/// on table reads when the text keeps visiting the same few thousand states, instead of an automaton
/// step per scalar. Bounded, and cleared when full; a text that fills it faster than it reuses it
/// (a new state nearly every scalar) makes it give up, and the match finishes on the bare automaton,
/// which is then the cheaper of the two.
struct LazyStates {
    /// Cells (states × columns) kept: 512 KiB of `Int32`.
    static let maximumCells = 131_072
    /// Thread positions kept over all states: 1 MiB, so wide patterns (a thousand threads a state)
    /// cannot make the table large.
    static let maximumThreads = 131_072
    /// Cells at or below this hold a shared table state, `firstShared - state`.
    static let firstShared: Int32 = -3

    /// Where the step being worked out started, for remembering its result.
    enum Origin {
        case none
        /// A cell of the shared table (which never changes, so the step is remembered in `sharedExits`).
        case shared(Int)
        /// A cell of this table.
        case lazy(Int)
    }

    let columns: Int
    /// Per cell of the shared table that leaves it, where its step goes: a state of this table, a
    /// shared state (encoded as in `transitions`), or `unknown`.
    private(set) var sharedExits: [Int32]
    private(set) var transitions: [Int32] = []
    private(set) var threads: [[Int]] = []
    private(set) var previous: [PatternAutomaton.Previous] = []
    private(set) var index: [PatternDFA.Key: Int32] = [:]
    private var storedThreads = 0
    /// Where the text was when the table was last cleared (or started).
    private var clearedAt = 0
    private(set) var gaveUp = false

    /// The cells this table keeps (``maximumCells`` but in tests).
    let cellLimit: Int

    init(columns: Int, sharedCells: Int, maximumCells: Int) {
        self.columns = columns
        cellLimit = maximumCells
        sharedExits = [Int32](repeating: PatternDFA.unknown, count: sharedCells)
    }

    /// The shared state and own state (one of them `unknown`) that a remembered step leads to.
    static func destination(_ encoded: Int32) -> (shared: Int32, own: Int32) {
        encoded >= 0 ? (PatternDFA.unknown, encoded) : (firstShared - encoded, PatternDFA.unknown)
    }

    mutating func remember(_ origin: Origin, _ target: Int32) {
        switch origin {
        case .none: break
        case .shared(let cell): sharedExits[cell] = target
        case .lazy(let cell): transitions[cell] = target
        }
    }

    /// Adds the state `key`, clearing the table first when it is full; `nil` when the table gives up.
    mutating func add(_ key: PatternDFA.Key, scalarsSoFar: Int) -> (state: Int32, cleared: Bool)? {
        var cleared = false
        if (threads.count + 1) * columns > cellLimit || storedThreads + key.threads.count > Self.maximumThreads {
            // RE2's rule: when fewer than 10 scalars were read per state made since the last clear, the
            // table is not paying for its states, and clearing would only repeat that.
            guard scalarsSoFar - clearedAt >= 10 * threads.count, key.threads.count <= Self.maximumThreads else {
                gaveUp = true
                return nil
            }
            transitions.removeAll(keepingCapacity: true)
            threads.removeAll(keepingCapacity: true)
            previous.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
            for cell in sharedExits.indices { sharedExits[cell] = PatternDFA.unknown }
            storedThreads = 0
            clearedAt = scalarsSoFar
            cleared = true
        }
        let id = Int32(threads.count)
        threads.append(key.threads)
        previous.append(key.previous)
        transitions.append(contentsOf: repeatElement(PatternDFA.unknown, count: columns))
        index[key] = id
        storedThreads += key.threads.count
        return (id, cleared)
    }
}
