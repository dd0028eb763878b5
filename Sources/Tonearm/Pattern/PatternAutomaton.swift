/// The Thompson automaton of a ``PatternProgram``: sets of instruction positions ("threads") advanced
/// one input scalar at a time. Each step visits every instruction at most once, so matching costs at most
/// text length × program size. ``PatternDFA`` caches the steps; this type computes them.
struct PatternAutomaton: Sendable, Hashable {
    /// What precedes the current position, as far as assertions care.
    enum Previous: UInt8, Hashable, Sendable {
        case start, word, newline, other
    }

    /// What follows the current position.
    enum Next {
        case end, finalNewline, newline, word, other
    }

    let program: PatternProgram
    let classes: InputClasses
    /// The column of a `\n` that is the text's last scalar (`$` holds before it): one past the classes.
    var finalNewlineColumn: Int { classes.count }
    var columnCount: Int { classes.count + 1 }

    init(_ program: PatternProgram) {
        classes = InputClasses(sets: program.sets)
        // Matching reads the sets through `classes` alone; a rule set of thousands of patterns would
        // otherwise keep an array per consuming instruction.
        var program = program
        program.sets = []
        self.program = program
    }

    var size: Int { program.instructions.count }

    /// The context after consuming a scalar of `column`, reduced to what the program's assertions read
    /// (fewer distinct contexts, fewer DFA states).
    func previous(afterColumn column: Int) -> Previous {
        let kind: InputClasses.Kind = column == finalNewlineColumn ? .newline : classes.kinds[column]
        switch kind {
        case .word: return program.usesWordBoundary ? .word : .other
        case .newline: return program.usesLineStart ? .newline : .other
        case .other: return .other
        }
    }

    /// The context after `scalar`, as ``previous(afterColumn:)`` gives it: where a program compiled after
    /// a literal prefix (``PatternProgram/init(compiling:pattern:emitting:)``) starts, after the prefix's
    /// last scalar.
    func previous(afterScalar scalar: Unicode.Scalar) -> Previous {
        if scalar.value == 10 { return program.usesLineStart ? .newline : .other }
        return program.usesWordBoundary && ScalarRanges.word.contains(scalar.value) ? .word : .other
    }

    func next(forColumn column: Int) -> Next {
        if column == finalNewlineColumn { return .finalNewline }
        switch classes.kinds[column] {
        case .word: return .word
        case .newline: return .newline
        case .other: return .other
        }
    }

    static func holds(_ assertion: PatternAssertion, previous: Previous, next: Next) -> Bool {
        switch assertion {
        case .textStart: return previous == .start
        case .lineStart: return previous == .start || previous == .newline
        case .textEnd: return next == .end
        case .textEndOrFinalNewline: return next == .end || next == .finalNewline
        case .lineEnd: return next == .end || next == .finalNewline || next == .newline
        case .wordBoundary: return (previous == .word) != (next == .word)
        case .notWordBoundary: return (previous == .word) == (next == .word)
        }
    }

    /// Scratch space for one match: reused between steps so a step allocates nothing.
    struct Workspace {
        var expanded: SparseSet
        var stack: [Int] = []
        /// Instruction visits so far: the work a match did, for the linearity tests.
        var visits = 0

        init(size: Int) {
            expanded = SparseSet(capacity: size)
            stack.reserveCapacity(size)
        }
    }

    /// Adds to `threads` the instructions reachable from `position` through splits and jumps, stopping
    /// at consuming instructions, assertions and the match (assertions are crossed only once the next
    /// scalar is known, in ``step``).
    func addClosure(from position: Int, to threads: inout SparseSet, _ workspace: inout Workspace) {
        program.instructions.withUnsafeBufferPointer { code in
            addClosure(from: position, to: &threads, &workspace, code)
        }
    }

    @inline(__always)
    private func addClosure(
        from position: Int, to threads: inout SparseSet, _ workspace: inout Workspace,
        _ code: UnsafeBufferPointer<PatternProgram.Instruction>
    ) {
        workspace.stack.append(position)
        while let current = workspace.stack.popLast() {
            guard threads.insert(current) else { continue }
            workspace.visits &+= 1
            switch code[current] {
            case .split(let first, let second):
                workspace.stack.append(Int(second))
                workspace.stack.append(Int(first))
            case .jump(let target):
                workspace.stack.append(Int(target))
            case .consume, .assert, .match:
                break
            }
        }
    }

    /// Per column, whether some thread of `threads` could consume a scalar of it: the consuming
    /// instructions reachable through splits, jumps and assertions (whether or not the assertions would
    /// hold). A step over any other column consumes nothing, so its result depends only on the column's
    /// ``assertionContext(ofColumn:)``: the DFA build works it out once per context.
    func consumableColumns(from threads: [Int], _ workspace: inout Workspace) -> [Bool] {
        var consumable = [Bool](repeating: false, count: columnCount)
        workspace.expanded.removeAll()
        workspace.stack.append(contentsOf: threads)
        while let current = workspace.stack.popLast() {
            guard workspace.expanded.insert(current) else { continue }
            switch program.instructions[current] {
            case .split(let first, let second):
                workspace.stack.append(Int(second))
                workspace.stack.append(Int(first))
            case .jump(let target):
                workspace.stack.append(Int(target))
            case .assert:
                workspace.stack.append(current + 1)
            case .consume(let set):
                for column in 0..<classes.count where classes.set(Int(set), contains: column) { consumable[column] = true }
            case .match:
                break
            }
        }
        consumable[finalNewlineColumn] = consumable[classes.classOf(10)]
        return consumable
    }

    /// What the assertions can tell about a scalar of `column` (word, newline, other, or the final
    /// newline), as a number below 4: two columns with the same context that no thread consumes step
    /// alike.
    func assertionContext(ofColumn column: Int) -> Int {
        column == finalNewlineColumn ? 3 : Int(classes.kinds[column].rawValue)
    }

    /// The threads at the start of the text.
    func startThreads(_ workspace: inout Workspace) -> SparseSet {
        var threads = SparseSet(capacity: size)
        addClosure(from: 0, to: &threads, &workspace)
        return threads
    }

    /// Advances `threads` (at a position preceded by `previous`) over one scalar of `column` into
    /// `following`; `nil` for the end of the text. Returns `true` when a match ends at the current
    /// position (then `following` is incomplete and not needed).
    func step(_ threads: SparseSet, previous: Previous, column: Int?, into following: inout SparseSet,
              _ workspace: inout Workspace) -> Bool {
        program.instructions.withUnsafeBufferPointer { code in
            step(threads, previous: previous, column: column, into: &following, &workspace, code)
        }
    }

    private func step(_ threads: SparseSet, previous: Previous, column: Int?, into following: inout SparseSet,
                      _ workspace: inout Workspace, _ code: UnsafeBufferPointer<PatternProgram.Instruction>) -> Bool {
        let next = column.map(next(forColumn:)) ?? .end
        workspace.expanded.removeAll()
        for thread in threads.elements { workspace.stack.append(thread) }
        while let current = workspace.stack.popLast() {
            guard workspace.expanded.insert(current) else { continue }
            workspace.visits &+= 1
            switch code[current] {
            case .split(let first, let second):
                workspace.stack.append(Int(second))
                workspace.stack.append(Int(first))
            case .jump(let target):
                workspace.stack.append(Int(target))
            case .assert(let assertion):
                if Self.holds(assertion, previous: previous, next: next) { workspace.stack.append(current + 1) }
            case .match:
                workspace.stack.removeAll(keepingCapacity: true)
                return true
            case .consume:
                break
            }
        }
        following.removeAll()
        guard let column else { return false }
        let inputClass = column == finalNewlineColumn ? classes.classOf(10) : column
        for thread in workspace.expanded.elements {
            guard case .consume(let set) = code[thread], classes.set(Int(set), contains: inputClass) else { continue }
            addClosure(from: thread + 1, to: &following, &workspace, code)
        }
        if !program.isAnchoredAtStart { addClosure(from: 0, to: &following, &workspace, code) }
        return false
    }
}

/// A set of small integers with constant-time insert, membership and clearing, kept in insertion order
/// (Briggs and Torczon's sparse set), sized for one program.
struct SparseSet: Sendable {
    private(set) var elements: [Int] = []
    private var slots: [Int]

    init(capacity: Int) {
        slots = [Int](repeating: 0, count: capacity)
        elements.reserveCapacity(capacity)
    }

    /// Inserts `value`; `false` when it was already there.
    @inline(__always)
    mutating func insert(_ value: Int) -> Bool {
        let slot = slots[value]
        if slot < elements.count, elements[slot] == value { return false }
        slots[value] = elements.count
        elements.append(value)
        return true
    }

    func contains(_ value: Int) -> Bool {
        let slot = slots[value]
        return slot < elements.count && elements[slot] == value
    }

    mutating func removeAll() { elements.removeAll(keepingCapacity: true) }

    /// The largest value it can hold, plus one.
    var capacity: Int { slots.count }

    var isEmpty: Bool { elements.isEmpty }
}
