/// The steps of a ``PatternAutomaton`` as word operations on a bit set, for the matches that leave the
/// shared table (``PatternDFA``): a step costs a bounded number of 64-bit word operations however many
/// threads are live, where the automaton costs 12–20 ns per live instruction (up to 2 × 2,000 visits a
/// scalar near the size cap, seconds on an 80 KB text).
///
/// **The state.** A bit per *stop*: an instruction where a thread waits between scalars (a consuming
/// instruction, an assertion, the match), numbered in program order, so the stops of a run like `.{1000}`
/// are consecutive bits. Splits and jumps never hold a thread between scalars: their effect is folded into
/// *follow sets* when the pattern compiles. The follow set of a stop is the stops reachable from the
/// instruction after it through splits and jumps (a position automaton over the Thompson program: Glushkov's
/// construction, computed from the program rather than the tree).
///
/// **A step** over a scalar of input class `c`, with the context before it (`previous`) and the scalar's
/// kind (`next`), does what ``PatternAutomaton/step(_:previous:column:into:_:)`` does to its threads:
/// 1. live assertions that hold between `previous` and `next` add their follow sets (again for assertions
///    those add; at most once each);
/// 2. a live match stop ends the search;
/// 3. `consumed = state & classMask[c]`, the consuming stops whose set holds the scalar;
/// 4. the new state is the union of the follow sets of `consumed` (plus the start's, unless the pattern is
///    anchored at the start), worked out by the operations below, each reading `consumed` alone (never the
///    new state, so their order does not matter and none is repeated).
///
/// **The follow union** is split, when the pattern compiles, into operations whose cost is the number of
/// words they span, not the number of live bits:
/// - *fill blocks*: a run of stops `s…e` where each stop is followed by every later stop up to `e`
///   (optional runs: `(?:a?){500}a` has each `a` followed by all later ones): one multi-word subtraction
///   over all blocks sets, in each block, every bit after the lowest consumed one (Navarro and Raffinot's
///   optional-character shift-and, with the blocks' end bits stopping the borrow);
/// - *shifts*: the edges `p → p + d` for one distance `d` (the chain of a concatenation is `d = 1`; a
///   repeated group's edges repeat at the same distances): `(consumed & mask) << d`, over the words the
///   mask spans;
/// - *fan-ins*: a stop reached from many stops (the common exit of `.{990}`'s optional copies, the join of
///   an alternation): one test of `consumed & sources` over the words they span;
/// - *fan-outs*: the rest, per source stop: its remaining targets ORed in when it was consumed.
/// Each edge is covered by the operation the greedy choice at compile time finds cheapest
/// (``stepWords`` is the sum), so the step's cost depends on the pattern's shape, never on the text.
///
/// Memory: the class masks (classes × words), the operations' masks (at most their spans), and the
/// follow sets of the assertions; for `(?:a?){500}a.{990}x` (1,498 stops, 24 words) about 10 KiB.
struct BitParallelAutomaton: Sendable {
    /// Edges `p → p + distance` for the source bits in `masks[maskStart…]` over words `firstWord..<endWord`.
    struct Shift: Sendable {
        var distance: Int
        var firstWord: Int
        var endWord: Int
        var maskStart: Int
    }

    /// `target` is reached when any source bit (`masks[maskStart…]` over `firstWord..<endWord`) is consumed.
    struct FanIn: Sendable {
        var target: Int
        var firstWord: Int
        var endWord: Int
        var maskStart: Int
    }

    /// When `source` is consumed, the targets in `masks[maskStart…]` over `firstWord..<endWord` are reached.
    struct FanOut: Sendable {
        var source: Int
        var firstWord: Int
        var endWord: Int
        var maskStart: Int
    }

    /// A stop holding an assertion: when it holds, the stops of its follow set join the state.
    struct AssertionStop: Sendable {
        var stop: Int
        var assertion: PatternAssertion
        var follow: FanOut
    }

    /// Stops (bits) and the words that hold them.
    let stopCount: Int
    let wordCount: Int
    /// Per instruction of the program, its stop, or -1 for splits and jumps.
    let stopOfInstruction: [Int32]
    let matchStop: Int
    let isAnchoredAtStart: Bool
    /// `classMasks[inputClass * wordCount + word]`: the consuming stops whose set holds the class.
    let classMasks: [UInt64]
    /// The stops a thread starting at the beginning of the program waits at, non-zero in `startWords`.
    let start: [UInt64]
    let startWords: Range<Int>
    /// The sources of the edges `p → p + 1` (a concatenation's chain), the commonest distance.
    let chain: [UInt64]
    let assertionMask: [UInt64]
    let assertions: [AssertionStop]
    /// The fill blocks: in each block, `fillStarts` has its first bit, `fillEnds` its last, `fillSources`
    /// the bits before the last, `fillTargets` the bits after the first; all over words `fillWords`.
    let fillWords: Range<Int>
    let fillMasks: [UInt64]
    let shifts: [Shift]
    let fanIns: [FanIn]
    let fanOuts: [FanOut]
    /// Every operation's mask, at `maskStart` for the words it spans.
    let masks: [UInt64]
    /// Word operations a step costs at most (the pass over the class mask and the chain, the start's
    /// union, each operation's span plus one, and every assertion's follow set): the bound
    /// ``LinearPattern/worstVisitsPerScalar`` reports.
    let stepWords: Int

    init(_ automaton: PatternAutomaton) {
        let program = automaton.program
        let instructions = program.instructions
        var stopOfInstruction = [Int32](repeating: -1, count: instructions.count)
        var stops = 0
        for (index, instruction) in instructions.enumerated() {
            switch instruction {
            case .consume, .assert, .match:
                stopOfInstruction[index] = Int32(stops)
                stops += 1
            case .split, .jump:
                break
            }
        }
        let wordCount = (stops + 63) / 64
        self.stopCount = stops
        self.wordCount = wordCount
        self.stopOfInstruction = stopOfInstruction
        isAnchoredAtStart = program.isAnchoredAtStart
        // The program always ends with its match instruction.
        matchStop = stops - 1

        // Follow sets, by a walk through splits and jumps from the instruction after each stop.
        var visited = [Int](repeating: -1, count: instructions.count)
        var stack: [Int] = []
        func follow(from first: Int, walk: Int) -> [UInt64] {
            var bits = [UInt64](repeating: 0, count: wordCount)
            stack.append(first)
            while let current = stack.popLast() {
                guard current < instructions.count, visited[current] != walk else { continue }
                visited[current] = walk
                switch instructions[current] {
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .jump(let target):
                    stack.append(target)
                case .consume, .assert, .match:
                    let stop = Int(stopOfInstruction[current])
                    bits[stop >> 6] |= 1 << UInt64(stop & 63)
                }
            }
            return bits
        }
        var walk = 0
        start = follow(from: 0, walk: walk)
        var consumeStops: [Int] = []
        var follows: [[UInt64]] = Array(repeating: [], count: stops)
        var assertionStops: [(stop: Int, assertion: PatternAssertion)] = []
        for (index, instruction) in instructions.enumerated() {
            let stop = Int(stopOfInstruction[index])
            switch instruction {
            case .consume:
                walk += 1
                follows[stop] = follow(from: index + 1, walk: walk)
                consumeStops.append(stop)
            case .assert(let assertion):
                walk += 1
                follows[stop] = follow(from: index + 1, walk: walk)
                assertionStops.append((stop, assertion))
            case .split, .jump, .match:
                break
            }
        }

        // Class masks.
        let classes = automaton.classes
        var classMasks = [UInt64](repeating: 0, count: classes.count * wordCount)
        for (index, instruction) in instructions.enumerated() {
            guard case .consume(let set) = instruction else { continue }
            let stop = Int(stopOfInstruction[index])
            for inputClass in 0..<classes.count where classes.set(set, contains: inputClass) {
                classMasks[inputClass * wordCount + stop >> 6] |= 1 << UInt64(stop & 63)
            }
        }
        self.classMasks = classMasks

        var builder = OperationBuilder(wordCount: wordCount)
        var assertionMask = [UInt64](repeating: 0, count: wordCount)
        var assertions: [AssertionStop] = []
        for (stop, assertion) in assertionStops {
            assertionMask[stop >> 6] |= 1 << UInt64(stop & 63)
            if let fanOut = builder.fanOut(source: stop, targets: follows[stop]) {
                assertions.append(AssertionStop(stop: stop, assertion: assertion, follow: fanOut))
            }
        }
        self.assertionMask = assertionMask
        self.assertions = assertions

        // The edges of the consuming stops, covered greedily: fill blocks, then shifts, fan-ins, fan-outs.
        var isConsume = [Bool](repeating: false, count: stops)
        for stop in consumeStops { isConsume[stop] = true }
        func has(_ row: [UInt64], _ bit: Int) -> Bool { row[bit >> 6] >> UInt64(bit & 63) & 1 != 0 }
        func clear(_ source: Int, _ bit: Int) { follows[source][bit >> 6] &= ~(1 << UInt64(bit & 63)) }
        /// The last stop `e` such that every stop after `source` up to `e` follows it.
        func reach(_ source: Int) -> Int {
            var last = source
            while last + 1 < stops, has(follows[source], last + 1) { last += 1 }
            return last
        }
        var fillMasks = [UInt64](repeating: 0, count: 4 * wordCount)
        var fillFirstWord = wordCount, fillEndWord = 0
        var candidate = 0
        while candidate < stops {
            guard isConsume[candidate] else { candidate += 1; continue }
            var end = reach(candidate)
            var inner = candidate + 1
            while inner < end {
                end = isConsume[inner] ? min(end, reach(inner)) : inner
                inner += 1
            }
            // Worth a block from three targets on; a shorter run is left to the shifts.
            guard end >= candidate + 3 else { candidate += 1; continue }
            for source in candidate..<end {
                for target in (source + 1)...end { clear(source, target) }
                fillMasks[2 * wordCount + source >> 6] |= 1 << UInt64(source & 63)
            }
            for target in (candidate + 1)...end { fillMasks[3 * wordCount + target >> 6] |= 1 << UInt64(target & 63) }
            fillMasks[candidate >> 6] |= 1 << UInt64(candidate & 63)
            fillMasks[wordCount + end >> 6] |= 1 << UInt64(end & 63)
            fillFirstWord = min(fillFirstWord, candidate >> 6)
            fillEndWord = max(fillEndWord, end >> 6 + 1)
            // Blocks stay apart (the next starts after this one's end bit), so borrows stay in their block.
            candidate = end + 1
        }
        fillWords = fillFirstWord < fillEndWord ? fillFirstWord..<fillEndWord : 0..<0
        self.fillMasks = fillMasks

        // Shifts: a distance is worth a shift when it has at least as many edges as words it spans.
        var chain = [UInt64](repeating: 0, count: wordCount)
        var edgesAtDistance: [Int: (count: Int, firstWord: Int, lastWord: Int)] = [:]
        for source in consumeStops {
            for word in 0..<wordCount where follows[source][word] != 0 {
                var bits = follows[source][word]
                while bits != 0 {
                    let target = word << 6 | bits.trailingZeroBitCount
                    bits &= bits - 1
                    let distance = target - source
                    let known = edgesAtDistance[distance] ?? (0, source >> 6, source >> 6)
                    edgesAtDistance[distance] = (known.count + 1, min(known.firstWord, source >> 6), max(known.lastWord, source >> 6))
                }
            }
        }
        for (distance, edges) in edgesAtDistance.sorted(by: { $0.key < $1.key })
        where edges.count >= 2 && edges.count >= edges.lastWord - edges.firstWord + 1 {
            var mask = [UInt64](repeating: 0, count: wordCount)
            for source in consumeStops {
                let target = source + distance
                guard target >= 0, target < stops, has(follows[source], target) else { continue }
                mask[source >> 6] |= 1 << UInt64(source & 63)
                clear(source, target)
            }
            // The chain (`p → p + 1`) is fused into the pass that reads the class masks.
            if distance == 1 { chain = mask } else { builder.addShift(distance: distance, sources: mask) }
        }

        // Fan-ins: a target with several remaining sources, when they span fewer words than they number.
        var sourcesOf = [[Int]](repeating: [], count: stops)
        for source in consumeStops {
            for word in 0..<wordCount where follows[source][word] != 0 {
                var bits = follows[source][word]
                while bits != 0 {
                    sourcesOf[word << 6 | bits.trailingZeroBitCount].append(source)
                    bits &= bits - 1
                }
            }
        }
        for target in 0..<stops {
            let sources = sourcesOf[target]
            guard sources.count >= 2, let first = sources.first, let last = sources.last,
                  sources.count >= last >> 6 - first >> 6 + 1 else { continue }
            var mask = [UInt64](repeating: 0, count: wordCount)
            for source in sources {
                mask[source >> 6] |= 1 << UInt64(source & 63)
                clear(source, target)
            }
            builder.addFanIn(target: target, sources: mask)
        }
        // Fan-outs: whatever is left, per source.
        for source in consumeStops {
            if let fanOut = builder.fanOut(source: source, targets: follows[source]) { builder.fanOuts.append(fanOut) }
        }
        self.chain = chain
        shifts = builder.shifts
        fanIns = builder.fanIns
        fanOuts = builder.fanOuts
        masks = builder.masks
        let startFirst = start.firstIndex { $0 != 0 } ?? 0
        let startLast = start.lastIndex { $0 != 0 } ?? -1
        startWords = startFirst..<(startLast + 1)
        stepWords = 2 * wordCount + startWords.count + builder.spannedWords + 2 * fillWords.count
    }

    /// Collects the operations' masks into one array, each trimmed to the words it spans.
    private struct OperationBuilder {
        let wordCount: Int
        var masks: [UInt64] = []
        var shifts: [Shift] = []
        var fanIns: [FanIn] = []
        var fanOuts: [FanOut] = []
        /// The words all operations span, plus one per operation for its own bookkeeping.
        var spannedWords = 0

        init(wordCount: Int) { self.wordCount = wordCount }

        /// The words of `bits` from its first non-zero word to its last, stored; `nil` when all are zero.
        private mutating func store(_ bits: [UInt64]) -> (firstWord: Int, endWord: Int, maskStart: Int)? {
            guard let first = bits.firstIndex(where: { $0 != 0 }), let last = bits.lastIndex(where: { $0 != 0 }) else { return nil }
            let maskStart = masks.count
            masks.append(contentsOf: bits[first...last])
            spannedWords += last - first + 2
            return (first, last + 1, maskStart)
        }

        mutating func addShift(distance: Int, sources: [UInt64]) {
            guard let stored = store(sources) else { return }
            shifts.append(Shift(distance: distance, firstWord: stored.firstWord, endWord: stored.endWord, maskStart: stored.maskStart))
        }

        mutating func addFanIn(target: Int, sources: [UInt64]) {
            guard let stored = store(sources) else { return }
            fanIns.append(FanIn(target: target, firstWord: stored.firstWord, endWord: stored.endWord, maskStart: stored.maskStart))
        }

        mutating func fanOut(source: Int, targets: [UInt64]) -> FanOut? {
            guard let stored = store(targets) else { return nil }
            return FanOut(source: source, firstWord: stored.firstWord, endWord: stored.endWord, maskStart: stored.maskStart)
        }
    }

    // MARK: Matching

    /// The state of one match: the live stops, and the scratch words a step writes.
    struct State {
        /// `wordCount + 2` words, the stops' word `i` at `i + 1`: a shift's carry into the word before the
        /// first or after the last lands in a spare word instead of needing a bounds test per word.
        var live: [UInt64]
        var consumed: [UInt64]
        /// Assertions already applied in this step, by their index in ``assertions``.
        var applied: [UInt64]
    }

    func startState() -> State {
        var state = emptyState()
        for word in 0..<wordCount { state.live[word + 1] = start[word] }
        return state
    }

    func emptyState() -> State {
        State(live: [UInt64](repeating: 0, count: wordCount + 2), consumed: [UInt64](repeating: 0, count: wordCount + 2),
              applied: [UInt64](repeating: 0, count: (assertions.count + 63) / 64))
    }

    /// The state of the threads of a ``PatternDFA`` state (instruction positions; splits and jumps among
    /// them hold nothing between scalars, so only the stops count).
    func state(threads: [Int]) -> State {
        var state = emptyState()
        for thread in threads where thread < stopOfInstruction.count {
            let stop = Int(stopOfInstruction[thread])
            guard stop >= 0 else { continue }
            state.live[stop >> 6 + 1] |= 1 << UInt64(stop & 63)
        }
        return state
    }

    /// Whether no stop is live.
    func isEmpty(_ state: State) -> Bool { !state.live.contains { $0 != 0 } }

    /// One step over a scalar of input class `inputClass` whose assertion view is `next` (`nil` class: the
    /// end of the text), from a position preceded by `previous`. Returns `true` when a match ends before
    /// the scalar, as ``PatternAutomaton/step(_:previous:column:into:_:)`` does.
    func step(_ state: inout State, previous: PatternAutomaton.Previous, next: PatternAutomaton.Next, inputClass: Int?) -> Bool {
        if !assertions.isEmpty { applyAssertions(&state, previous: previous, next: next) }
        if state.live[matchStop >> 6 + 1] >> UInt64(matchStop & 63) & 1 != 0 { return true }
        guard let inputClass else { return false }
        let words = wordCount
        state.live.withUnsafeMutableBufferPointer { live in
            state.consumed.withUnsafeMutableBufferPointer { consumed in
                classMasks.withUnsafeBufferPointer { classMasks in
                    masks.withUnsafeBufferPointer { masks in
                        // Every index below is inside its buffer: `live` and `consumed` have `words + 2`
                        // words; the operations' word ranges and mask starts were made by `init` within
                        // `0..<words` and `masks`; a shift by `d` writes words `w + ⌊d/64⌋ + 1` and one
                        // more, within `0...words + 1` because its mask keeps only sources whose target
                        // is a stop. `inputClass` is a class of this pattern's `InputClasses`.
                        let classBase = inputClass * words
                        // One pass: what the scalar consumes, and the chain's edges from it.
                        var any: UInt64 = 0
                        var carry: UInt64 = 0
                        chain.withUnsafeBufferPointer { chain in
                            for word in 0..<words {
                                let bits = live[word + 1] & classMasks[classBase + word]
                                consumed[word + 1] = bits
                                any |= bits
                                let chained = bits & chain[word]
                                live[word + 1] = chained << 1 | carry
                                carry = chained >> 63
                            }
                        }
                        live[0] = 0
                        live[words + 1] = carry
                        if !isAnchoredAtStart {
                            start.withUnsafeBufferPointer { start in
                                for word in startWords { live[word + 1] |= start[word] }
                            }
                        }
                        guard any != 0 else { return }
                        if !fillWords.isEmpty { fill(live, consumed) }
                        for shift in shifts {
                            let quotient = shift.distance >> 6
                            let remainder = UInt64(shift.distance & 63)
                            var mask = shift.maskStart
                            if remainder == 0 {
                                for word in shift.firstWord..<shift.endWord {
                                    live[word + quotient + 1] |= consumed[word + 1] & masks[mask]
                                    mask += 1
                                }
                            } else {
                                for word in shift.firstWord..<shift.endWord {
                                    let bits = consumed[word + 1] & masks[mask]
                                    live[word + quotient + 1] |= bits << remainder
                                    live[word + quotient + 2] |= bits >> (64 - remainder)
                                    mask += 1
                                }
                            }
                        }
                        for fanIn in fanIns {
                            var hit: UInt64 = 0
                            var mask = fanIn.maskStart
                            for word in fanIn.firstWord..<fanIn.endWord {
                                hit |= consumed[word + 1] & masks[mask]
                                mask += 1
                            }
                            if hit != 0 { live[fanIn.target >> 6 + 1] |= 1 << UInt64(fanIn.target & 63) }
                        }
                        for fanOut in fanOuts where consumed[fanOut.source >> 6 + 1] >> UInt64(fanOut.source & 63) & 1 != 0 {
                            var mask = fanOut.maskStart
                            for word in fanOut.firstWord..<fanOut.endWord {
                                live[word + 1] |= masks[mask]
                                mask += 1
                            }
                        }
                    }
                }
            }
        }
        // Bits shifted past the last stop or before the first land in the spare words: no stop is there.
        state.live[0] = 0
        state.live[words + 1] = 0
        return false
    }

    /// The fill blocks: in each, the bits after the lowest consumed one, up to the block's end. With `z`
    /// the consumed sources plus the end bit, `z - start` borrows from the block's first bit up to the
    /// lowest set bit of `z` (never past the end bit), so `~(z - start) ^ z` is set exactly above it.
    @inline(__always)
    private func fill(_ live: UnsafeMutableBufferPointer<UInt64>, _ consumed: UnsafeMutableBufferPointer<UInt64>) {
        fillMasks.withUnsafeBufferPointer { fillMasks in
            let words = wordCount
            var borrow: UInt64 = 0
            for word in fillWords {
                let z = (consumed[word + 1] & fillMasks[2 * words + word]) | fillMasks[words + word]
                let (partial, firstBorrow) = z.subtractingReportingOverflow(fillMasks[word])
                let (difference, secondBorrow) = partial.subtractingReportingOverflow(borrow)
                borrow = firstBorrow || secondBorrow ? 1 : 0
                live[word + 1] |= (~difference ^ z) & fillMasks[3 * words + word]
            }
        }
    }

    /// Adds the follow sets of the live assertions that hold here, until none is left to add.
    private func applyAssertions(_ state: inout State, previous: PatternAutomaton.Previous, next: PatternAutomaton.Next) {
        var liveAssertion = false
        for word in 0..<wordCount where state.live[word + 1] & assertionMask[word] != 0 { liveAssertion = true; break }
        guard liveAssertion else { return }
        for word in state.applied.indices { state.applied[word] = 0 }
        var added = true
        while added {
            added = false
            for (index, assertion) in assertions.enumerated() {
                let stop = assertion.stop
                guard state.applied[index >> 6] >> UInt64(index & 63) & 1 == 0,
                      state.live[stop >> 6 + 1] >> UInt64(stop & 63) & 1 != 0,
                      PatternAutomaton.holds(assertion.assertion, previous: previous, next: next) else { continue }
                state.applied[index >> 6] |= 1 << UInt64(index & 63)
                var mask = assertion.follow.maskStart
                for word in assertion.follow.firstWord..<assertion.follow.endWord {
                    state.live[word + 1] |= masks[mask]
                    mask += 1
                }
                added = true
            }
        }
    }
}
