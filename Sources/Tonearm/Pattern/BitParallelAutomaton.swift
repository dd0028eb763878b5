/// The steps of a ``PatternAutomaton`` as word operations on a bit set, for the matches that leave the
/// shared table (``PatternDFA``): a step costs a number of 64-bit word operations fixed when the pattern
/// compiles (``stepWords``), however many threads are live, where the automaton costs 12–20 ns per live
/// instruction (up to 2 × 2,000 visits a scalar near the size cap, seconds on an 80 KB text).
///
/// **The state.** A bit per *stop*: an instruction where a thread waits between scalars (a consuming
/// instruction, an assertion, the match), numbered in program order, so the stops of a run like `.{1000}`
/// are consecutive bits. Splits and jumps never hold a thread between scalars: their effect is folded into
/// *follow sets* when the pattern compiles. The follow set of a stop is the stops reachable from the
/// instruction after it through splits and jumps (a position automaton over the Thompson program:
/// Glushkov's construction, computed from the program rather than the tree).
///
/// **A step** over a scalar of input class `c`, with the context before it (`previous`) and the scalar's
/// kind (`next`), does what ``PatternAutomaton/step(_:previous:column:into:_:)`` does to its threads:
/// 1. the live assertions that hold between `previous` and `next` add their follow sets, closed when the
///    pattern compiles over the holding assertions they reach (one union per context);
/// 2. a live match stop ends the search;
/// 3. `consumed = live & classMask[c]`, the consuming stops whose set holds the scalar;
/// 4. the new state is the union of the follow sets of `consumed`, plus the start's unless the pattern
///    is anchored at the start (``FollowUnion``).
///
/// Memory: the stop number of each instruction, the class masks (classes × words) and the operations'
/// masks, each trimmed to the words it spans; about 12 KB for the widest patterns of
/// docs/benchmarks-history.md, "Worst cases in bit-parallel steps" (1,493–1,993 stops, 24–32 words).
/// Built at load only for patterns whose table is incomplete.
///
/// The cost of a step depends on the pattern's shape: a few passes over the words for concatenations,
/// optional and counted runs and stars of small groups (65 word operations for `a.{1000}.{990}x`), but
/// hundreds of operations for groups mixing optional parts, nested stars and alternations repeated
/// hundreds of times, which the grouping into fill blocks only partly finds (docs/benchmarks-history.md,
/// "Worst cases in bit-parallel steps"). A pattern whose step is estimated above 5 ms on an 80 KB text
/// is refused at load (``StepCostModel``; docs/benchmarks.md, "Step-cost limit").
///
/// A class: only patterns whose table is incomplete have one, and held inline its dozen fields made
/// every compiled pattern (thousands in a rule set) larger. Immutable (`let` properties of `Sendable`
/// types only), so sharing it across threads is safe.
final class BitParallelAutomaton: Sendable {
    /// Stops (bits) and the words that hold them (at most 32 under ``PatternProgram/maximumSize``).
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
    /// The follow sets of the consuming stops.
    let consumed: FollowUnion
    /// Per assertion context (``contextIndex(previous:next:)``), an index into `holding`, or -1 when no
    /// assertion of the pattern holds there.
    let contextHolding: [Int]
    /// Per distinct set of holding assertions: the stops holding them, and the union of their follow
    /// sets closed over the holding assertions those reach (so step 1 is one round).
    let holding: [(stops: [UInt64], follows: FollowUnion)]
    /// Word operations a step costs at most: the pass over the class mask (with the chain), the
    /// start's union, the consumed stops' operations, and for patterns with assertions the holding test
    /// and the costliest context's operations. The bound ``LinearPattern/worstVisitsPerScalar`` reports.
    let stepWords: Int

    /// An upper estimate of a step's CPU time in picoseconds (``StepCostModel``), fixed when the pattern
    /// compiles like ``stepWords``, but weighing each kind of operation by what it was measured to cost.
    let stepCost: Int

    /// The 20 contexts an assertion can see: what precedes (4) and what follows (5).
    static func contextIndex(previous: PatternAutomaton.Previous, next: PatternAutomaton.Next) -> Int {
        let following: Int
        switch next {
        case .end: following = 0
        case .finalNewline: following = 1
        case .newline: following = 2
        case .word: following = 3
        case .other: following = 4
        }
        return Int(previous.rawValue) * 5 + following
    }

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
        // The program always ends with its (one) match instruction.
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
                    stack.append(Int(second))
                    stack.append(Int(first))
                case .jump(let target):
                    stack.append(Int(target))
                case .consume, .assert, .match:
                    let stop = Int(stopOfInstruction[current])
                    bits[stop >> 6] |= 1 << UInt64(stop & 63)
                }
            }
            return bits
        }
        let start = follow(from: 0, walk: 0)
        self.start = start
        var follows: [[UInt64]] = Array(repeating: [], count: stops)
        var consumeStops: [Int] = []
        var assertionStops: [Int] = []
        var assertionOf = [PatternAssertion?](repeating: nil, count: stops)
        let classes = automaton.classes
        var classMasks = [UInt64](repeating: 0, count: classes.count * wordCount)
        for (index, instruction) in instructions.enumerated() {
            let stop = Int(stopOfInstruction[index])
            switch instruction {
            case .consume(let set):
                follows[stop] = follow(from: index + 1, walk: index + 1)
                consumeStops.append(stop)
                for inputClass in 0..<classes.count where classes.set(Int(set), contains: inputClass) {
                    classMasks[inputClass * wordCount + stop >> 6] |= 1 << UInt64(stop & 63)
                }
            case .assert(let assertion):
                follows[stop] = follow(from: index + 1, walk: index + 1)
                assertionStops.append(stop)
                assertionOf[stop] = assertion
            case .split, .jump, .match:
                break
            }
        }
        self.classMasks = classMasks
        let startFirst = start.firstIndex { $0 != 0 } ?? 0
        let startLast = start.lastIndex { $0 != 0 } ?? -1
        let startWords = startFirst..<(startLast + 1)
        self.startWords = startWords
        let consumed = FollowUnion(follows: follows, sources: consumeStops, wordCount: wordCount, fusingChain: true)
        self.consumed = consumed

        // Step 1 per context: the assertions that hold there, and their follow sets closed over the
        // holding assertions they reach (the automaton crosses those in the same step).
        var contextHolding = [Int](repeating: -1, count: 20)
        var holding: [(stops: [UInt64], follows: FollowUnion)] = []
        var holdingSets: [[Int]: Int] = [:]
        let previousValues: [PatternAutomaton.Previous] = [.start, .word, .newline, .other]
        let nextValues: [PatternAutomaton.Next] = [.end, .finalNewline, .newline, .word, .other]
        for previous in previousValues {
            for next in nextValues {
                let holds = assertionStops.filter { stop in
                    assertionOf[stop].map { PatternAutomaton.holds($0, previous: previous, next: next) } ?? false
                }
                guard !holds.isEmpty else { continue }
                let context = Self.contextIndex(previous: previous, next: next)
                if let known = holdingSets[holds] { contextHolding[context] = known; continue }
                var holdingMask = [UInt64](repeating: 0, count: wordCount)
                for stop in holds { holdingMask[stop >> 6] |= 1 << UInt64(stop & 63) }
                var closed = follows
                for stop in holds {
                    var reached = follows[stop]
                    var crossed = [UInt64](repeating: 0, count: wordCount)
                    crossed[stop >> 6] |= 1 << UInt64(stop & 63)
                    while true {
                        var next: Int?
                        for word in 0..<wordCount {
                            let waiting = reached[word] & holdingMask[word] & ~crossed[word]
                            if waiting != 0 { next = word << 6 | waiting.trailingZeroBitCount; break }
                        }
                        guard let other = next else { break }
                        crossed[other >> 6] |= 1 << UInt64(other & 63)
                        for word in 0..<wordCount { reached[word] |= follows[other][word] }
                    }
                    closed[stop] = reached
                }
                holdingSets[holds] = holding.count
                contextHolding[context] = holding.count
                holding.append((holdingMask, FollowUnion(follows: closed, sources: holds, wordCount: wordCount, fusingChain: false)))
            }
        }
        self.contextHolding = contextHolding
        self.holding = holding
        stepWords = 2 * wordCount + startWords.count + consumed.words
            + (holding.isEmpty ? 0 : wordCount + (holding.map(\.follows.words).max() ?? 0))
        stepCost = StepCostModel.cost(
            wordCount: wordCount, startWords: startWords.count, consumed: consumed.census,
            holding: holding.isEmpty ? nil : holding.map(\.follows.census))
    }

    // MARK: Matching

    /// The state of one match: the live stops, and the scratch words a step writes.
    struct State {
        /// `wordCount + 2` words, the stops' word `i` at `i + 1`: a shift's carry into the word before the
        /// first or after the last lands in a spare word instead of needing a bounds test per word.
        var live: [UInt64]
        /// The stops a step's operations read (consumed, or holding assertions), same layout.
        var sources: [UInt64]
        /// Relocated fill sources (``FollowUnion``), same layout.
        var scratch: [UInt64]
    }

    func startState() -> State {
        var state = emptyState()
        for word in 0..<wordCount { state.live[word + 1] = start[word] }
        return state
    }

    func emptyState() -> State {
        let words = [UInt64](repeating: 0, count: wordCount + 2)
        return State(live: words, sources: words, scratch: words)
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
        if !holding.isEmpty {
            let index = contextHolding[Self.contextIndex(previous: previous, next: next)]
            if index >= 0 { applyAssertions(&state, holding[index]) }
        }
        if state.live[matchStop >> 6 + 1] >> UInt64(matchStop & 63) & 1 != 0 { return true }
        guard let inputClass else { return false }
        let words = wordCount
        state.live.withUnsafeMutableBufferPointer { live in
            state.sources.withUnsafeMutableBufferPointer { sources in
                state.scratch.withUnsafeMutableBufferPointer { scratch in
                classMasks.withUnsafeBufferPointer { classMasks in
                    consumed.chain.withUnsafeBufferPointer { chain in
                        // `live` and `sources` have `words + 2` words; `inputClass` is a class of this
                        // pattern's `InputClasses`, so its mask is `words` words inside `classMasks`.
                        let classBase = inputClass * words
                        // One pass: what the scalar consumes, and the chain's edges from it.
                        var any: UInt64 = 0
                        var carry: UInt64 = 0
                        for word in 0..<words {
                            let bits = live[word + 1] & classMasks[classBase + word]
                            sources[word + 1] = bits
                            any |= bits
                            let chained = bits & chain[word]
                            live[word + 1] = chained << 1 | carry
                            carry = chained >> 63
                        }
                        live[0] = 0
                        live[words + 1] = carry
                        if !isAnchoredAtStart {
                            start.withUnsafeBufferPointer { start in
                                for word in startWords { live[word + 1] |= start[word] }
                            }
                        }
                        if any != 0 { consumed.apply(sources, into: live, scratch: scratch) }
                    }
                }
                }
            }
        }
        // Bits shifted past the last stop land in the spare word: no stop is there.
        state.live[words + 1] = 0
        return false
    }

    /// Step 1: adds the closed follow sets of the live assertions that hold here.
    private func applyAssertions(_ state: inout State, _ holding: (stops: [UInt64], follows: FollowUnion)) {
        let words = wordCount
        state.live.withUnsafeMutableBufferPointer { live in
            state.sources.withUnsafeMutableBufferPointer { sources in
                state.scratch.withUnsafeMutableBufferPointer { scratch in
                    holding.stops.withUnsafeBufferPointer { stops in
                        // `live` and `sources` have `words + 2` words, `stops` `words`.
                        var any: UInt64 = 0
                        for word in 0..<words {
                            let bits = live[word + 1] & stops[word]
                            sources[word + 1] = bits
                            any |= bits
                        }
                        // The chain of these follow sets is not fused: its edges `p → p + 1` are among its shifts.
                        if any != 0 { holding.follows.apply(sources, into: live, scratch: scratch) }
                        live[words + 1] = 0
                    }
                }
            }
        }
    }
}

/// The union of the follow sets of a set of source stops, split when the pattern compiles into
/// operations whose cost is the number of words they span, not the number of live bits, each reading
/// only the sources (never what the others write, so their order does not matter and none repeats):
/// - *the chain*: the edges `p → p + 1` (a concatenation), fused into the pass that reads the class
///   masks (``BitParallelAutomaton/step(_:previous:next:inputClass:)``) for the consumed stops;
/// - *fill blocks*: stops `T` each reached from every source `S` before it within a block `s…e` (the
///   skips of optional and repeated runs: `(?:a?){500}a` has each `a` followed by all later ones,
///   `(?:[ab]{0,4}){212}` each stop followed by the first stop of every later copy). One multi-word
///   subtraction per layer of disjoint blocks sets, in each block, the targets after its lowest source
///   (Navarro and Raffinot's shift-and for optional characters, generalised to a sparse target set);
/// - *shifts*: the edges `p → p + d` for one distance `d` (a repeated group's edges repeat at the same
///   distances): `(sources & mask) << d` over the words the mask spans;
/// - *fan-ins*: a stop reached from several sources: one test of `sources & mask`;
/// - *fan-outs*: the rest, per source: its remaining targets ORed in when it is a source.
/// Each edge is covered by the first operation that takes it, in that order; ``words`` is their cost.
final class FollowUnion: Sendable {
    /// Where an operation's mask is: `masks[maskStart…]`, one word for each of words `firstWord..<endWord`.
    struct MaskSpan: Sendable {
        var firstWord: Int
        var endWord: Int
        var maskStart: Int
    }

    /// Edges `p → p + distance` for the source bits of the mask.
    struct Shift: Sendable {
        var distance: Int
        var span: MaskSpan
    }

    /// `target` is reached when any source bit of the mask is set.
    struct FanIn: Sendable {
        var target: Int
        var span: MaskSpan
    }

    /// When `source` is set, the targets of the mask are reached.
    struct FanOut: Sendable {
        var source: Int
        var span: MaskSpan
    }

    /// Disjoint fill blocks over words `firstWord..<endWord`: four masks of that span from `maskStart`,
    /// the blocks' first bits, their last bits, their sources and their targets.
    struct FillLayer: Sendable {
        var firstWord: Int
        var endWord: Int
        var maskStart: Int
        /// The index in `relocations` of the operations that move relocated sources, or -1.
        var relocation: Int
    }

    let wordCount: Int
    /// The sources of the edges `p → p + 1` when fused by the caller (else all zero).
    let chain: [UInt64]
    let fills: [FillLayer]
    /// The relocations of the fill layers' sources (unions without fill blocks of their own).
    let relocations: [FollowUnion]
    let shifts: [Shift]
    let fanIns: [FanIn]
    let fanOuts: [FanOut]
    let masks: [UInt64]
    /// Word operations ``apply(_:into:)`` costs at most: each operation's span, plus one per operation.
    let words: Int
    /// What ``apply(_:into:scratch:)`` runs, by kind, the relocations' included: the operations of each
    /// kind and the words they span (the inputs of ``BitParallelAutomaton/stepCost``).
    struct Census {
        var fills = 0, fillWords = 0
        var shifts = 0, shiftWords = 0
        var fanIns = 0, fanInWords = 0
        var fanOuts = 0, fanOutWords = 0

        static func + (left: Census, right: Census) -> Census {
            Census(fills: left.fills + right.fills, fillWords: left.fillWords + right.fillWords,
                   shifts: left.shifts + right.shifts, shiftWords: left.shiftWords + right.shiftWords,
                   fanIns: left.fanIns + right.fanIns, fanInWords: left.fanInWords + right.fanInWords,
                   fanOuts: left.fanOuts + right.fanOuts, fanOutWords: left.fanOutWords + right.fanOutWords)
        }
    }

    var census: Census {
        var own = Census()
        own.fills = fills.count
        own.fillWords = fills.reduce(0) { $0 + $1.endWord - $1.firstWord }
        own.shifts = shifts.count
        own.shiftWords = shifts.reduce(0) { $0 + $1.span.endWord - $1.span.firstWord }
        own.fanIns = fanIns.count
        own.fanInWords = fanIns.reduce(0) { $0 + $1.span.endWord - $1.span.firstWord }
        own.fanOuts = fanOuts.count
        own.fanOutWords = fanOuts.reduce(0) { $0 + $1.span.endWord - $1.span.firstWord }
        return relocations.reduce(own) { $0 + $1.census }
    }

    init(follows: [[UInt64]], sources: [Int], wordCount: Int, fusingChain: Bool) {
        self.wordCount = wordCount
        let stops = follows.count
        var rows = follows
        var masks: [UInt64] = []
        var words = 0
        func has(_ row: [UInt64], _ bit: Int) -> Bool { row[bit >> 6] >> UInt64(bit & 63) & 1 != 0 }
        func bitSet(_ bits: [Int]) -> [UInt64] {
            var set = [UInt64](repeating: 0, count: wordCount)
            for bit in bits { set[bit >> 6] |= 1 << UInt64(bit & 63) }
            return set
        }
        /// Stores the words of `bits` from its first non-zero word to its last; `nil` when all are zero.
        func store(_ bits: [UInt64]) -> MaskSpan? {
            guard let first = bits.firstIndex(where: { $0 != 0 }), let last = bits.lastIndex(where: { $0 != 0 }) else { return nil }
            let maskStart = masks.count
            masks.append(contentsOf: bits[first...last])
            words += last - first + 2
            return MaskSpan(firstWord: first, endWord: last + 1, maskStart: maskStart)
        }
        func targets(of source: Int) -> [Int] {
            var found: [Int] = []
            for word in 0..<wordCount where rows[source][word] != 0 {
                var bits = rows[source][word]
                while bits != 0 {
                    found.append(word << 6 | bits.trailingZeroBitCount)
                    bits &= bits - 1
                }
            }
            return found
        }

        // Fill blocks: targets grouped by their first (forward) source. A source `p` of the group joins
        // the block when it reaches every target of the group from its first one, `f(p)`, up: then the
        // targets it reaches are those at or after `f(p)`. When a target of the group lies between `p`
        // and `f(p)` (`p` ends one branch of an alternation whose other branch starts after it: `(x|c)`
        // in a nullable group, `x` not followed by `c`), `p` is *relocated* to `f(p)` first, by
        // operations of their own (repeated groups relocate by a few distances).
        // A source left out of every block (it skips a target after its first) often fits a block of
        // the edges the first round leaves: a few rounds.
        typealias Block = (first: Int, last: Int, direct: [Int], relocated: [(source: Int, to: Int)], targets: [Int])
        var layers: [[Block]] = []
        for _ in 0..<4 {
        var forwardSources = [[Int]](repeating: [], count: stops)
        for source in sources {
            for target in targets(of: source) where target > source { forwardSources[target].append(source) }
        }
        var groups: [Int: [Int]] = [:]
        for target in 0..<stops where forwardSources[target].count >= 2 {
            groups[forwardSources[target][0], default: []].append(target)
        }
        var added = false
        // A block of two targets (`(a|c)` repeated: each copy's two stops follow the last's two) costs a
        // layer pass over its words for edges that two shifts cover at about half the cost per word
        // (`(?:(a|c)){485}[é-ü]`: 101 word operations and 7.9 ms on 80 KB with such blocks, 67 and 3.8 ms
        // without), so blocks start at three targets.
        for (_, targets) in groups.sorted(by: { $0.key < $1.key }) where targets.count >= 3 {
            guard let last = targets.last else { continue }
            let targetSet = bitSet(targets)
            var direct: [Int] = [], relocated: [(source: Int, to: Int)] = []
            for source in Set(targets.flatMap { forwardSources[$0] }).sorted() {
                // `f(p)`, and whether every target from it up follows `p`.
                guard let to = targets.first(where: { $0 > source && has(rows[source], $0) }),
                      (0..<wordCount).allSatisfy({ word in
                          var from = targetSet[word]
                          if word < to >> 6 { from = 0 } else if word == to >> 6 { from &= ~0 << UInt64(to & 63) }
                          return from & ~rows[source][word] == 0
                      }) else { continue }
                if targets.contains(where: { $0 > source && $0 < to }) { relocated.append((source, to)) } else { direct.append(source) }
            }
            guard direct.count + relocated.count >= 2 else { continue }
            for (source, to) in direct.map({ ($0, $0 + 1) }) + relocated {
                for target in targets where target >= to { rows[source][target >> 6] &= ~(1 << UInt64(target & 63)) }
            }
            let first = min(direct.first ?? last, relocated.map(\.to).min() ?? last)
            // Blocks of one layer stay apart (the next starts after the last's end bit), so each
            // block's borrow stays inside it.
            let block: Block = (first, last, direct, relocated, targets)
            if let free = layers.firstIndex(where: { $0.allSatisfy { $0.last < first || last < $0.first } }) {
                layers[free].append(block)
            } else {
                layers.append([block])
            }
            added = true
        }
        if !added { break }
        }
        var fills: [FillLayer] = []
        var relocations: [FollowUnion] = []
        for layer in layers {
            let firstWord = layer.map { $0.first >> 6 }.min() ?? 0
            let endWord = (layer.map { $0.last >> 6 }.max() ?? -1) + 1
            let maskStart = masks.count
            for bits in [bitSet(layer.map(\.first)), bitSet(layer.map(\.last)), bitSet(layer.flatMap(\.direct)), bitSet(layer.flatMap(\.targets))] {
                masks.append(contentsOf: bits[firstWord..<endWord])
            }
            words += 2 * (endWord - firstWord) + 1
            var relocation = -1
            let moves = layer.flatMap(\.relocated)
            if !moves.isEmpty {
                var moveRows = [[UInt64]](repeating: [UInt64](repeating: 0, count: wordCount), count: stops)
                for (source, to) in moves { moveRows[source][to >> 6] |= 1 << UInt64(to & 63) }
                let union = FollowUnion(follows: moveRows, sources: moves.map(\.source), wordCount: wordCount, fusingChain: false)
                relocation = relocations.count
                relocations.append(union)
                words += union.words + 2 * (endWord - firstWord)
            }
            fills.append(FillLayer(firstWord: firstWord, endWord: endWord, maskStart: maskStart, relocation: relocation))
        }
        self.relocations = relocations
        self.fills = fills

        // Shifts: a distance is worth one when it has at least as many edges as the words it spans.
        var chain = [UInt64](repeating: 0, count: wordCount)
        var edgesAtDistance: [Int: (count: Int, firstWord: Int, lastWord: Int)] = [:]
        for source in sources {
            for target in targets(of: source) {
                let known = edgesAtDistance[target - source] ?? (0, source >> 6, source >> 6)
                edgesAtDistance[target - source] = (known.count + 1, min(known.firstWord, source >> 6), max(known.lastWord, source >> 6))
            }
        }
        var shifts: [Shift] = []
        for (distance, edges) in edgesAtDistance.sorted(by: { $0.key < $1.key })
        where (fusingChain && distance == 1) || (edges.count >= 2 && edges.count >= edges.lastWord - edges.firstWord + 1) {
            var mask = [UInt64](repeating: 0, count: wordCount)
            for source in sources {
                let target = source + distance
                guard target >= 0, target < stops, has(rows[source], target) else { continue }
                mask[source >> 6] |= 1 << UInt64(source & 63)
                rows[source][target >> 6] &= ~(1 << UInt64(target & 63))
            }
            if fusingChain && distance == 1 {
                chain = mask
            } else if let stored = store(mask) {
                shifts.append(Shift(distance: distance, span: stored))
            }
        }
        self.chain = chain
        self.shifts = shifts

        // Fan-ins: a target with several remaining sources, when they number at least the words they span.
        var remainingSources = [[Int]](repeating: [], count: stops)
        for source in sources {
            for target in targets(of: source) { remainingSources[target].append(source) }
        }
        var fanIns: [FanIn] = []
        for target in 0..<stops {
            let from = remainingSources[target]
            guard from.count >= 2, let first = from.first, let last = from.last, from.count >= last >> 6 - first >> 6 + 1 else { continue }
            for source in from { rows[source][target >> 6] &= ~(1 << UInt64(target & 63)) }
            if let stored = store(bitSet(from)) {
                fanIns.append(FanIn(target: target, span: stored))
            }
        }
        self.fanIns = fanIns
        // Fan-outs: whatever is left, per source.
        var fanOuts: [FanOut] = []
        for source in sources {
            if let stored = store(rows[source]) {
                fanOuts.append(FanOut(source: source, span: stored))
            }
        }
        self.fanOuts = fanOuts
        self.masks = masks
        self.words = words
    }

    /// ORs into `live` the follow sets of the stops set in `sources` (but the fused chain's). All three
    /// have `wordCount + 2` words, word `i` at `i + 1`; `scratch` holds relocated sources.
    @inline(__always)
    func apply(_ sources: UnsafeMutableBufferPointer<UInt64>, into live: UnsafeMutableBufferPointer<UInt64>,
               scratch: UnsafeMutableBufferPointer<UInt64>) {
        masks.withUnsafeBufferPointer { masks in
            // Every index is inside its buffer: `init` made each operation's word range within
            // `0..<wordCount` and its masks within `masks`; a shift by `d` writes words `w + ⌊d/64⌋ + 1`
            // and `w + ⌊d/64⌋ + 2` of `live`, within `0...wordCount + 1` because its mask keeps only
            // sources whose target `p + d` is a stop.
            for layer in fills {
                let span = layer.endWord - layer.firstWord
                if layer.relocation >= 0 {
                    for word in layer.firstWord..<layer.endWord { scratch[word + 1] = 0 }
                    relocations.withUnsafeBufferPointer { relocations in
                        relocations[layer.relocation].apply(sources, into: scratch, scratch: scratch)
                    }
                }
                // The layer's four masks, each `span` words, and the words they cover in the state.
                // `base` is inside `masks` (`init` stored four spans from `maskStart`).
                guard let base = masks.baseAddress, let sourceWords = sources.baseAddress,
                      let liveWords = live.baseAddress, let scratchWords = scratch.baseAddress else { continue }
                let firsts = base + layer.maskStart, lasts = firsts + span, direct = lasts + span, targets = direct + span
                let from = sourceWords + layer.firstWord + 1, into = liveWords + layer.firstWord + 1
                let moves = scratchWords + layer.firstWord + 1
                let relocated = layer.relocation >= 0
                var borrow: UInt64 = 0
                for index in 0..<span {
                    // `z`: the block's set sources (relocated ones at their first target) and its end
                    // bit; `z - first` borrows from the block's first bit up to the lowest set bit of `z`
                    // (never past the end bit), so `~(z - first) ^ z` is set exactly above it. The borrow
                    // out of a word is the top bit of `(~z & first) | (~(z ^ first) & difference)`.
                    let moved = relocated ? moves[index] : 0
                    let z = (from[index] & direct[index]) | moved | lasts[index]
                    let first = firsts[index]
                    let difference = z &- first &- borrow
                    borrow = ((~z & first) | (~(z ^ first) & difference)) >> 63
                    into[index] |= ((~difference ^ z) | moved) & targets[index]
                }
            }
            for shift in shifts {
                let quotient = shift.distance >> 6
                let remainder = UInt64(shift.distance & 63)
                var mask = shift.span.maskStart
                if remainder == 0 {
                    for word in shift.span.firstWord..<shift.span.endWord {
                        live[word + quotient + 1] |= sources[word + 1] & masks[mask]
                        mask += 1
                    }
                } else {
                    // The bits carried into the next word stay in a register: writing them into `live` at
                    // once made each word's update wait on the previous one's store.
                    var carry: UInt64 = 0
                    for word in shift.span.firstWord..<shift.span.endWord {
                        let bits = sources[word + 1] & masks[mask]
                        live[word + quotient + 1] |= bits << remainder | carry
                        carry = bits >> (64 - remainder)
                        mask += 1
                    }
                    live[shift.span.endWord + quotient + 1] |= carry
                }
            }
            for fanIn in fanIns {
                var hit: UInt64 = 0
                var mask = fanIn.span.maskStart
                for word in fanIn.span.firstWord..<fanIn.span.endWord {
                    hit |= sources[word + 1] & masks[mask]
                    mask += 1
                }
                if hit != 0 { live[fanIn.target >> 6 + 1] |= 1 << UInt64(fanIn.target & 63) }
            }
            }
            fanOuts.withUnsafeBufferPointer { fanOuts in
            for fanOut in fanOuts where sources[fanOut.source >> 6 + 1] >> UInt64(fanOut.source & 63) & 1 != 0 {
                var mask = fanOut.span.maskStart
                for word in fanOut.span.firstWord..<fanOut.span.endWord {
                    live[word + 1] |= masks[mask]
                    mask += 1
                }
            }
        }
        // A negative shift's carry into the word before the first lands in the spare word 0.
        live[0] = 0
    }
}
