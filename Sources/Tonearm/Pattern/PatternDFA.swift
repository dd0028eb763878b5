/// The steps of a ``PatternAutomaton`` worked out ahead, as a table from (state, input class) to state:
/// the fast path, one table read per scalar. States are built breadth-first from the start until the
/// table reaches ``maximumCells``; a step that leaves the table is run on the automaton instead (and
/// matching returns to the table when it reaches a state it has), so a pattern whose DFA would be huge
/// (`(a|b)*a(a|b){12}`) costs memory for its first states only and still matches in linear time.
///
/// Built once when the pattern compiles and never changed afterwards, so it is shared by every
/// connection without a lock.
struct PatternDFA: Sendable {
    /// The most table cells (states × columns) kept per pattern: 128 KiB of `Int32`.
    static let maximumCells = 32_768

    /// A transition to a state not in the table.
    static let unknown: Int32 = -1
    /// A transition that finds a match ending before the scalar read.
    static let matched: Int32 = -2

    struct Key: Hashable {
        var threads: [Int]
        var previous: PatternAutomaton.Previous
    }

    let columns: Int
    private(set) var transitions: [Int32] = []
    private(set) var acceptsAtEnd: [Bool] = []
    /// States with no threads left in an anchored pattern: no match can follow.
    private(set) var isDead: [Bool] = []
    private(set) var threads: [[Int]] = []
    private(set) var previous: [PatternAutomaton.Previous] = []
    private(set) var index: [Key: Int32] = [:]
    /// Whether every reachable state is in the table (then matching never leaves it).
    private(set) var isComplete = true

    init(_ automaton: PatternAutomaton) {
        columns = automaton.columnCount
        var workspace = PatternAutomaton.Workspace(size: automaton.size)
        let start = automaton.startThreads(&workspace)
        _ = add(Key(threads: start.elements.sorted(), previous: .start), automaton: automaton)
        var following = SparseSet(capacity: automaton.size)
        var current = SparseSet(capacity: automaton.size)
        var state = 0
        while state < threads.count {
            current.removeAll()
            for thread in threads[state] { _ = current.insert(thread) }
            let context = previous[state]
            acceptsAtEnd[state] = automaton.step(current, previous: context, column: nil, into: &following, &workspace)
            for column in 0..<columns {
                let cell = state * columns + column
                if automaton.step(current, previous: context, column: column, into: &following, &workspace) {
                    transitions[cell] = Self.matched
                    continue
                }
                let key = Key(threads: following.elements.sorted(), previous: automaton.previous(afterColumn: column))
                if let known = index[key] {
                    transitions[cell] = known
                } else if (threads.count + 1) * columns <= Self.maximumCells {
                    transitions[cell] = add(key, automaton: automaton)
                } else {
                    isComplete = false
                }
            }
            state += 1
        }
    }

    private mutating func add(_ key: Key, automaton: PatternAutomaton) -> Int32 {
        let id = Int32(threads.count)
        threads.append(key.threads)
        previous.append(key.previous)
        acceptsAtEnd.append(false)
        isDead.append(key.threads.isEmpty && automaton.program.isAnchoredAtStart)
        transitions.append(contentsOf: repeatElement(Self.unknown, count: columns))
        index[key] = id
        return id
    }
}
