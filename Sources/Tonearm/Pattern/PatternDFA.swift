/// The steps of a ``PatternAutomaton`` worked out ahead, as a table from (state, input class) to state:
/// the fast path, one table read per scalar. States are built breadth-first from the start until the
/// table reaches ``maximumCells`` or the build ``maximumBuildVisits``; a match that leaves the table
/// continues on bit-parallel steps (``BitParallelAutomaton``) from the threads of the state it left, so a
/// pattern whose DFA would be huge (`(a|b)*a(a|b){12}`) costs memory for its first states only and still
/// matches in linear time.
///
/// Built once when the pattern compiles and never changed afterwards, so it is shared by every
/// connection without a lock.
struct PatternDFA: Sendable {
    /// The most table cells (states × columns) kept per pattern: 128 KiB of `Int32`.
    static let maximumCells = 32_768
    /// The most instruction visits spent building the table. The cell cap alone let a wide pattern near
    /// the program-size cap (`(?:a?){500}a.{990}x`, thousands of visits per cell) take 1.4 s to load, on
    /// the thread that loads it (the event loop, for `POST /__admin/mappings`); with this budget it
    /// takes 20–32 ms. (A quarter of it was measured when a match that left the table built its own
    /// lazy table, and made those matches slower; they now run bit-parallel steps instead.) Typical URL
    /// patterns' tables have tens of states of a few threads each, far below it.
    static let maximumBuildVisits = 1_000_000

    /// A transition to a state not in the table.
    static let unknown: Int32 = -1
    /// A transition that finds a match ending before the scalar read.
    static let matched: Int32 = -2
    /// A transition to a state with no threads left in a pattern anchored at the start: no match can
    /// follow, so matching stops there (a marker in the cell, so the fast path reads nothing more).
    static let dead: Int32 = -3

    struct Key: Hashable {
        var threads: [Int]
        var previous: PatternAutomaton.Previous
    }

    let columns: Int
    /// Per cell, the state it leads to, or ``unknown`` or ``matched``: 16 bits, since the cell cap keeps
    /// state numbers below 2^15 (at least two columns) and the build refuses a state past that anyway;
    /// half the memory of a rule set of thousands of patterns.
    private(set) var transitions: [Int16] = []
    /// Per state: whether the text may end there (``acceptsAtEndMask``) and what precedes it (the low
    /// bits, a ``PatternAutomaton/Previous``), one byte in one array.
    private var stateInfo: [UInt8] = []
    private static let acceptsAtEndMask: UInt8 = 0x80
    /// States with no threads left in an anchored pattern, while building (cells leading to them are
    /// then ``dead``).
    private var isDead: [Bool] = []
    private(set) var threads: [[Int]] = []
    private(set) var index: [Key: Int32] = [:]
    /// Whether every reachable state is in the table (then matching never leaves it).
    private(set) var isComplete = true

    /// Sets for working out a new state's end-of-text answer while the build's own are in use.
    private struct Scratch {
        var threads: SparseSet
        var following: SparseSet
        var workspace: PatternAutomaton.Workspace
    }

    /// The table of `automaton` from its start, preceded by `startPrevious` (``PatternAutomaton/Previous/start``
    /// at the start of the text; after a literal prefix the context its last scalar leaves).
    init(_ automaton: PatternAutomaton, startPrevious: PatternAutomaton.Previous = .start) {
        columns = automaton.columnCount
        var workspace = PatternAutomaton.Workspace(size: automaton.size)
        var scratch = Scratch(
            threads: SparseSet(capacity: automaton.size), following: SparseSet(capacity: automaton.size),
            workspace: PatternAutomaton.Workspace(size: automaton.size))
        let start = automaton.startThreads(&workspace)
        _ = add(Key(threads: start.elements.sorted(), previous: startPrevious), automaton: automaton, &scratch)
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
            let context = previous(Int32(state))
            // Most columns of a URL pattern's state lead nowhere (or back to the start): those no thread
            // consumes are stepped once per assertion context, not once each.
            let consumable = automaton.consumableColumns(from: threads[state], &workspace)
            var unconsumedTarget = [Int32](repeating: Self.unknown, count: 4)
            for column in 0..<columns {
                let cell = state * columns + column
                let assertionContext = automaton.assertionContext(ofColumn: column)
                if !consumable[column], unconsumedTarget[assertionContext] != Self.unknown {
                    transitions[cell] = Self.cellValue(unconsumedTarget[assertionContext])
                    continue
                }
                if automaton.step(current, previous: context, column: column, into: &following, &workspace) {
                    transitions[cell] = Self.cellValue(Self.matched)
                } else {
                    let key = Key(threads: following.elements.sorted(), previous: automaton.previous(afterColumn: column))
                    if let known = index[key] {
                        transitions[cell] = Self.cellValue(known)
                    } else if (threads.count + 1) * columns <= Self.maximumCells, threads.count < Int(Int16.max) {
                        transitions[cell] = Self.cellValue(add(key, automaton: automaton, &scratch))
                        workspace.visits &+= scratch.workspace.visits
                        scratch.workspace.visits = 0
                    } else {
                        isComplete = false
                    }
                }
                if !consumable[column] { unconsumedTarget[assertionContext] = Int32(transitions[cell]) }
            }
            state += 1
        }
        for cell in transitions.indices where transitions[cell] >= 0 && isDead[Int(transitions[cell])] {
            transitions[cell] = Self.cellValue(Self.dead)
        }
        isDead = []
        if isComplete {
            // Matching never leaves a complete table, and only a match that leaves it reads the states'
            // threads and the index: a rule set of thousands keeps its tables alone.
            threads = []
            index = [:]
        }
        // Exactly sized: appending a row at a time leaves up to twice the room.
        transitions = transitions.withUnsafeBufferPointer { Array($0) }
    }

    /// `value` (a state number below `Int16.max`, as the build guarantees, or a negative marker) as stored.
    private static func cellValue(_ value: Int32) -> Int16 {
        Int16(truncatingIfNeeded: value)
    }

    /// Whether a text may end in `state` (the pattern then matches).
    @inline(__always)
    func acceptsAtEnd(_ state: Int32) -> Bool {
        stateInfo[Int(state)] & Self.acceptsAtEndMask != 0
    }

    /// What precedes the text's position in `state`.
    func previous(_ state: Int32) -> PatternAutomaton.Previous {
        PatternAutomaton.Previous(rawValue: stateInfo[Int(state)] & ~Self.acceptsAtEndMask) ?? .other
    }

    /// The state (or marker) cell `cell` leads to.
    @inline(__always)
    func target(_ cell: Int) -> Int32 {
        Int32(transitions[cell])
    }

    private mutating func add(_ key: Key, automaton: PatternAutomaton, _ scratch: inout Scratch) -> Int32 {
        let id = Int32(threads.count)
        threads.append(key.threads)
        // Worked out here rather than when the state's row is, so a state the build budget leaves
        // unexpanded still answers at the end of the text.
        scratch.threads.removeAll()
        for thread in key.threads { _ = scratch.threads.insert(thread) }
        let accepts = automaton.step(scratch.threads, previous: key.previous, column: nil, into: &scratch.following, &scratch.workspace)
        stateInfo.append(key.previous.rawValue | (accepts ? Self.acceptsAtEndMask : 0))
        isDead.append(key.threads.isEmpty && automaton.program.isAnchoredAtStart)
        transitions.append(contentsOf: repeatElement(Self.cellValue(Self.unknown), count: columns))
        index[key] = id
        return id
    }
}
