/// The steps of a ``PatternAutomaton`` worked out ahead, as a table from (state, input class) to state:
/// the fast path, one table read per scalar. States are built breadth-first from the start until the
/// table reaches ``maximumCells`` or the build ``maximumBuildVisits``; a step that leaves the table is
/// run on the automaton and remembered in the match's own table (``LazyStates``), and matching returns
/// to this table when it reaches a state it has, so a pattern whose DFA would be huge
/// (`(a|b)*a(a|b){12}`) costs memory for its first states only and still matches in linear time.
///
/// Built once when the pattern compiles and never changed afterwards, so it is shared by every
/// connection without a lock.
struct PatternDFA: Sendable {
    /// The most table cells (states × columns) kept per pattern: 128 KiB of `Int32`.
    static let maximumCells = 32_768
    /// The most instruction visits spent building the table. The cell cap alone let a wide pattern near
    /// the program-size cap (`(?:a?){500}a.{990}x`, thousands of visits per cell) take 1.4 s to load, on
    /// the thread that loads it (the event loop, for `POST /__admin/mappings`); with this budget it
    /// takes 20–32 ms. A quarter of it (about 5 ms) was measured too: it made a match of
    /// `(a|b)*a(a|b){12}` that leaves the table twice as slow (19 ms instead of 10 ms on 80 KB), since
    /// every match then builds more states itself, and a load happens once where matches happen per
    /// request. Typical URL patterns' tables have tens of states of a few threads each, far below it.
    static let maximumBuildVisits = 1_000_000

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

    /// Sets for working out a new state's end-of-text answer while the build's own are in use.
    private struct Scratch {
        var threads: SparseSet
        var following: SparseSet
        var workspace: PatternAutomaton.Workspace
    }

    init(_ automaton: PatternAutomaton) {
        columns = automaton.columnCount
        var workspace = PatternAutomaton.Workspace(size: automaton.size)
        var scratch = Scratch(
            threads: SparseSet(capacity: automaton.size), following: SparseSet(capacity: automaton.size),
            workspace: PatternAutomaton.Workspace(size: automaton.size))
        let start = automaton.startThreads(&workspace)
        _ = add(Key(threads: start.elements.sorted(), previous: .start), automaton: automaton, &scratch)
        var following = SparseSet(capacity: automaton.size)
        var current = SparseSet(capacity: automaton.size)
        var state = 0
        while state < threads.count {
            // States left unexpanded keep rows of `unknown`: matching steps off the table there.
            if workspace.visits > Self.maximumBuildVisits {
                isComplete = false
                break
            }
            current.removeAll()
            for thread in threads[state] { _ = current.insert(thread) }
            let context = previous[state]
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
                    transitions[cell] = add(key, automaton: automaton, &scratch)
                    workspace.visits &+= scratch.workspace.visits
                    scratch.workspace.visits = 0
                } else {
                    isComplete = false
                }
            }
            state += 1
        }
    }

    private mutating func add(_ key: Key, automaton: PatternAutomaton, _ scratch: inout Scratch) -> Int32 {
        let id = Int32(threads.count)
        threads.append(key.threads)
        previous.append(key.previous)
        // Worked out here rather than when the state's row is, so a state the build budget leaves
        // unexpanded still answers at the end of the text.
        scratch.threads.removeAll()
        for thread in key.threads { _ = scratch.threads.insert(thread) }
        acceptsAtEnd.append(automaton.step(
            scratch.threads, previous: key.previous, column: nil, into: &scratch.following, &scratch.workspace))
        isDead.append(key.threads.isEmpty && automaton.program.isAnchoredAtStart)
        transitions.append(contentsOf: repeatElement(Self.unknown, count: columns))
        index[key] = id
        return id
    }
}
