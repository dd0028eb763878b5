/// What a bit-parallel step (``BitParallelAutomaton``) costs, estimated when the pattern compiles from
/// the operations it will run, and the most a pattern may cost: issue 33's goal of any accepted pattern
/// answering an 80 KB URL within 5 ms, held by construction (docs/limits.md, "Regular expressions").
///
/// A step's work is fixed by the pattern (how many of its positions are live changes nothing but the
/// fan-outs it skips), so its cost is known at load. ``BitParallelAutomaton/stepWords`` counts word
/// operations, but their kinds differ several-fold in time (a fused chain word about 0.5 ns, a shift
/// word or a fill word several times that, each assertion context's round tens of nanoseconds of
/// fixed work), so the estimate weighs them. The weights were set from CPU time measured on a random
/// sample of wide patterns (`scripts/bench-rules.sh sample`, docs/benchmarks.md "Step-cost limit") so
/// that every pattern of it the limit accepts measured within 4.6 ms on 80 KB; the estimate is a model
/// of this machine, not a proof (a pattern measured up to 1.2 × its estimate), and it errs towards
/// refusing (`(?:a?){500}a.{990}x`, 4.1–4.5 ms measured, is estimated at 60 ns a scalar and refused).
enum StepCostModel {
    /// Picoseconds per scalar a pattern's step may cost: 5 ms on an 80 KB (81,920-scalar) text, less
    /// the ~0.4 ms `ReplayEngine.match` spends canonicalising such a URL, is 56 ns.
    static let maximumPicoseconds = 56_000
    /// The text size the limit is set for: the goal's 80 KB URL.
    static let budgetScalars = 81_920

    // Weights in picoseconds (see the type's comment for how they were set).
    static let perStep = 14_000
    static let perStateWord = 1_000
    static let perStartWord = 1_000
    static let perFill = 1_000
    static let perFillWord = 1_600
    static let perShift = 1_000
    static let perShiftWord = 1_100
    static let perFanIn = 3_000
    static let perFanInWord = 1_000
    static let perFanOut = 2_000
    static let perFanOutWord = 1_000
    /// A pattern with assertions: the context test per step, and per state word the holding test.
    static let perAssertionStep = 10_000
    static let perAssertionStateWord = 2_200

    /// The cost of the operations of one union.
    static func cost(_ census: FollowUnion.Census) -> Int {
        census.fills * perFill + census.fillWords * perFillWord
            + census.shifts * perShift + census.shiftWords * perShiftWord
            + census.fanIns * perFanIn + census.fanInWords * perFanInWord
            + census.fanOuts * perFanOut + census.fanOutWords * perFanOutWord
    }

    /// A step's estimated picoseconds: the pass over the class mask and the chain, the start's union,
    /// the consumed stops' union, and with assertions the holding test and the costliest context's union.
    static func cost(wordCount: Int, startWords: Int, consumed: FollowUnion.Census, holding: [FollowUnion.Census]?) -> Int {
        var total = perStep + wordCount * perStateWord + startWords * perStartWord + cost(consumed)
        if let holding {
            total += perAssertionStep + wordCount * perAssertionStateWord + (holding.map(cost).max() ?? 0)
        }
        return total
    }
}
