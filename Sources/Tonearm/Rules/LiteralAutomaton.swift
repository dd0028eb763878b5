/// Finds, in one pass over a text, every literal of a fixed set that occurs in it (the Aho-Corasick
/// automaton, with its failure links worked out into a full table so each byte is one table read): how a
/// ``RuleShard`` learns which of its rules' required literals a request's URL contains.
///
/// Built once and never changed, so any number of readers share it without a lock. The table has a
/// column per byte value that some literal uses, plus one for every other byte, so its size is
/// states × (distinct literal bytes + 1), not states × 256; the literals' length is capped by the
/// caller (``RuleShard/literalWindow``) to bound the states.
struct LiteralAutomaton: Sendable {
    /// The column of each byte value; 0 for a byte no literal uses.
    private let column: [UInt16]
    private let columns: Int
    /// `transitions[state * columns + column]`: the state after reading a byte of that column, as its
    /// number when no literal ends there, else as the number's complement (negative): the search learns
    /// from the cell it reads anyway whether to look for outputs, not from another array.
    private let transitions: [Int32]
    /// Per state, the first state on its suffix chain (itself included) where a literal ends; -1 when none.
    private let firstOutput: [Int32]
    /// Per state with outputs, the next state on its suffix chain where a literal ends; -1 when none.
    private let nextOutput: [Int32]
    /// The literals ending at state `s` are `outputs[outputStart[s]..<outputStart[s + 1]]`.
    private let outputStart: [Int32]
    private let outputs: [Int32]

    /// An automaton finding `literals` (each non-empty); a match reports the literal's index.
    init(_ literals: [[UInt8]]) {
        var column = [UInt16](repeating: 0, count: 256)
        var columns = 1
        for literal in literals {
            for byte in literal where column[Int(byte)] == 0 {
                column[Int(byte)] = UInt16(columns)
                columns += 1
            }
        }
        // The trie: children in the table (-1 for none), literal ends per state.
        var transitions = [Int32](repeating: -1, count: columns)
        var ends: [[Int32]] = [[]]
        for (index, literal) in literals.enumerated() {
            var state = 0
            for byte in literal {
                let cell = state * columns + Int(column[Int(byte)])
                if transitions[cell] < 0 {
                    transitions[cell] = Int32(ends.count)
                    ends.append([])
                    transitions.append(contentsOf: repeatElement(-1, count: columns))
                }
                state = Int(transitions[cell])
            }
            ends[state].append(Int32(index))
        }
        // Breadth first, each missing child becomes the failure state's child (already complete, as
        // the failure state is shallower), so the table answers every byte.
        let stateCount = ends.count
        var failure = [Int32](repeating: 0, count: stateCount)
        var firstOutput = [Int32](repeating: -1, count: stateCount)
        var nextOutput = [Int32](repeating: -1, count: stateCount)
        if !ends[0].isEmpty { firstOutput[0] = 0 }
        var queue: [Int32] = []
        queue.reserveCapacity(stateCount)
        for cell in 0..<columns {
            if transitions[cell] < 0 {
                transitions[cell] = 0
            } else {
                queue.append(transitions[cell])
            }
        }
        var head = 0
        while head < queue.count {
            let state = Int(queue[head])
            head += 1
            let fallback = Int(failure[state])
            nextOutput[state] = firstOutput[fallback]
            firstOutput[state] = ends[state].isEmpty ? nextOutput[state] : Int32(state)
            for cell in 0..<columns {
                let child = transitions[state * columns + cell]
                let viaFailure = transitions[fallback * columns + cell]
                if child < 0 {
                    transitions[state * columns + cell] = viaFailure
                } else {
                    failure[Int(child)] = viaFailure
                    queue.append(child)
                }
            }
        }
        for cell in transitions.indices where firstOutput[Int(transitions[cell])] >= 0 {
            transitions[cell] = ~transitions[cell]
        }
        var outputStart: [Int32] = [0]
        outputStart.reserveCapacity(stateCount + 1)
        var outputs: [Int32] = []
        for list in ends {
            outputs.append(contentsOf: list)
            outputStart.append(Int32(outputs.count))
        }
        self.column = column
        self.columns = columns
        self.transitions = transitions
        self.firstOutput = firstOutput
        self.nextOutput = nextOutput
        self.outputStart = outputStart
        self.outputs = outputs
    }

    /// Calls `found` with the index of each literal occurring in `text` and the offset just past that
    /// occurrence, once per occurrence (so a literal may be reported more than once).
    func forEachMatch(in text: UnsafeBufferPointer<UInt8>, _ found: (_ literal: Int, _ end: Int) -> Void) {
        transitions.withUnsafeBufferPointer { table in
            column.withUnsafeBufferPointer { column in
                firstOutput.withUnsafeBufferPointer { firstOutput in
                    var state = 0
                    if firstOutput[0] >= 0 { reportOutputs(from: 0, end: 0, found) }
                    for (offset, byte) in text.enumerated() {
                        let next = table[state &* columns &+ Int(column[Int(byte)])]
                        if next >= 0 {
                            state = Int(next)
                        } else {
                            state = Int(~next)
                            reportOutputs(from: Int(firstOutput[state]), end: offset + 1, found)
                        }
                    }
                }
            }
        }
    }

    /// Reports every literal ending at `state` and at the states down its output chain.
    private func reportOutputs(from state: Int, end: Int, _ found: (Int, Int) -> Void) {
        var current = state
        while current >= 0 {
            for offset in Int(outputStart[current])..<Int(outputStart[current + 1]) { found(Int(outputs[offset]), end) }
            current = Int(nextOutput[current])
        }
    }

    /// Bytes held by the tables.
    var storageBytes: Int {
        transitions.count * 4 + (firstOutput.count + nextOutput.count + outputStart.count + outputs.count) * 4 + 512
    }
}
