#if canImport(Glibc)
import Glibc
#endif

// The random sample of wide patterns (issue 33): patterns of 500–2,000 instructions that repeat a
// generated group (nested groups, alternations with empty branches, counted and nested repetition,
// assertions) tens to hundreds of times, the shapes whose bit-parallel steps cost the most. For each
// pattern the engine accepts: whether its table is complete, its step cost (`stepWords`), and for those
// with bit-parallel steps the CPU time of those steps alone over 80 KB texts that keep many stops live
// (all `a`) and few (random `a`/`b`/`c`/`x`), the larger kept. Plus the same counts for the realistic
// rule sets (`RuleWorkload`) and WireMock-style `urlPathPattern`s.

/// The generator of `BitParallelAutomatonTests.node`, repeated here (the test target is not compiled in).
struct SampleGenerator {
    static let atoms = ["a", "b", "c", "x", ".", "[ab]", "[^a]", "[a-c1]", "\\w", "\\W", "\\d", "\\s", "é", "[é-ü]", "(?s:.)", "(?i:a)"]
    static let assertions = ["^", "$", "\\b", "\\B", "\\A", "\\z", "\\Z", "(?m:^)", "(?m:$)"]
    static let repeats = ["*", "+", "?", "{2}", "{1,3}", "{0,4}", "{2,}", "*?", "{3,5}"]
    var random: SeededRandom

    mutating func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }

    mutating func node(depth: Int) -> String {
        switch Int(random.next() % UInt64(depth > 3 ? 4 : 12)) {
        case 0, 1, 2: return pick(Self.atoms)
        case 3: return pick(Self.assertions)
        case 4, 5: return "(" + node(depth: depth + 1) + "|" + node(depth: depth + 1) + ")"
        case 6: return "(?:" + node(depth: depth + 1) + "|)"
        case 7, 8: return "(?:" + node(depth: depth + 1) + ")" + pick(Self.repeats)
        default: return node(depth: depth + 1) + node(depth: depth + 1)
        }
    }

    /// `(?:G){n}` + an atom, with `n` taking the program to 500–2,000 instructions; `nil` when `G` is too
    /// large for that.
    mutating func widePattern() -> String? {
        let group = node(depth: 0)
        guard let tree = try? PatternParser.parse("(?:" + group + ")"),
              let program = try? PatternProgram(compiling: tree, pattern: group) else { return nil }
        let size = max(1, program.instructions.count - 1)
        guard size <= 500 else { return nil }
        let low = (500 + size - 1) / size, high = 2_000 / size
        guard low <= high, high <= 1_000 else { return nil }
        let count = low + Int(random.next() % UInt64(high - low + 1))
        return "(?:" + group + "){\(count)}" + pick(Self.atoms)
    }
}

/// One pattern's bit-parallel steps over 80 KB of `a` then of random `a`/`b`/`c`/`x` (for a profiler).
func profileRun(_ pattern: String) {
    let length = 80 * 1024
    var random = SeededRandom(seed: 7)
    let texts = ["/" + String(repeating: "a", count: length),
                 "/" + String((0..<length).map { _ in Array("abcx")[Int(random.next() % 4)] })]
    guard let compiled = try? LinearPattern(pattern) else { print("refused"); return }
    for text in texts {
        var visits = 0
        let start = cpu()
        let found = compiled.matchesBitParallel(text, visits: &visits)
        print("\(found) \(format2(Double(cpu() - start) / 1e6)) ms, stepWords \(compiled.bitParallel?.stepWords ?? BitParallelAutomaton(compiled.automaton).stepWords)")
    }
}

func sampleRun(_ count: Int) {
    var generator = SampleGenerator(random: SeededRandom(seed: 0x5EED_0033))
    let length = 80 * 1024
    let texts = ["/" + String(repeating: "a", count: length),
                 "/" + String((0..<length).map { _ in Array("abcx")[Int(generator.random.next() % 4)] })]
    var generated = 0, refusedByParser = 0, complete = 0, refusedByCost = 0
    var refusedRows: [(stepWords: Int, milliseconds: Double)] = []
    var rows: [(pattern: String, stepWords: Int, milliseconds: Double)] = []
    var compiledPatterns: [(pattern: String, compiled: LinearPattern, steps: BitParallelAutomaton)] = []
    while generated < count {
        guard let pattern = generator.widePattern() else { continue }
        generated += 1
        let compiled: LinearPattern
        do { compiled = try LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false) } catch { refusedByParser += 1; continue }
        guard let steps = compiled.bitParallel else { complete += 1; continue }
        compiledPatterns.append((pattern, compiled, steps))
    }
    // Each pattern's steps alone on each text, the least of five rounds taken in turn over the whole
    // sample (so a burst of load from the machine's other work lands on different patterns in each
    // round, and the least is the least disturbed), then the costlier text.
    var least = [[UInt64]](repeating: [UInt64](repeating: .max, count: texts.count), count: compiledPatterns.count)
    for _ in 0..<5 {
        for (index, item) in compiledPatterns.enumerated() {
            for (textIndex, text) in texts.enumerated() {
                var visits = 0
                let start = cpu()
                _ = item.compiled.matchesBitParallel(text, visits: &visits)
                least[index][textIndex] = min(least[index][textIndex], cpu() - start)
            }
        }
    }
    for (index, item) in compiledPatterns.enumerated() {
        let steps = item.steps, pattern = item.pattern
        let worst = least[index].max() ?? 0
        if steps.stepCost > StepCostModel.maximumPicoseconds {
            refusedByCost += 1
            refusedRows.append((steps.stepWords, Double(worst) / 1e6))
        } else {
            rows.append((pattern, steps.stepWords, Double(worst) / 1e6))
        }
        if getenv("SAMPLE_CSV") != nil {
            let c = steps.consumed.census
            func size(_ census: FollowUnion.Census) -> Int { census.fillWords + census.shiftWords + census.fanInWords + census.fanOutWords }
            let hc: FollowUnion.Census = steps.holding.map(\.follows.census).max { size($0) < size($1) } ?? FollowUnion.Census()
            let fields: [Int] = [steps.wordCount, steps.startWords.count, steps.holding.isEmpty ? 0 : 1,
                          c.fills, c.fillWords, c.shifts, c.shiftWords, c.fanIns, c.fanInWords, c.fanOuts, c.fanOutWords,
                          hc.fills, hc.fillWords, hc.shifts, hc.shiftWords, hc.fanIns, hc.fanInWords, hc.fanOuts, hc.fanOutWords, steps.stepWords]
            print("csv," + fields.map(String.init).joined(separator: ",") + ",\(Double(worst) / 1e6),\(pattern)")
        }
    }
    print("sample: \(generated) generated, \(refusedByParser) refused by the parser or the size cap, \(complete) table complete, "
        + "\(rows.count + refusedRows.count) with bit-parallel steps, of which \(refusedByCost) over the step-cost limit")
    if !refusedRows.isEmpty {
        let times = refusedRows.map(\.milliseconds).sorted()
        print("the refused ones' steps over 80 KB: \(format2(times[0]))–\(format2(times[times.count - 1])) ms (median \(format2(times[times.count / 2]))); stepWords \(refusedRows.map(\.stepWords).min() ?? 0)–\(refusedRows.map(\.stepWords).max() ?? 0)")
    }
    print("accepted with bit-parallel steps:")
    let sorted = rows.sorted { $0.stepWords < $1.stepWords }
    func at(_ fraction: Double) -> Int { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))].stepWords }
    print("stepWords: p10 \(at(0.1)), median \(at(0.5)), p90 \(at(0.9)), p99 \(at(0.99)), max \(sorted.last?.stepWords ?? 0)")
    // Time per step word, and the bands.
    let bands = [0, 64, 96, 128, 160, 192, 256, 512, 1_024, 4_096, 1_000_000]
    for index in 0..<(bands.count - 1) {
        let band = rows.filter { $0.stepWords > bands[index] && $0.stepWords <= bands[index + 1] }
        guard !band.isEmpty else { continue }
        let times = band.map(\.milliseconds).sorted()
        let perWord = band.map { $0.milliseconds * 1e6 / Double(length) / Double($0.stepWords) }.sorted()
        print("  stepWords \(bands[index] + 1)–\(bands[index + 1]): \(band.count) patterns, 80 KB steps \(format2(times[0]))–\(format2(times[times.count - 1])) ms (median \(format2(times[times.count / 2]))), ns per word \(format2(perWord[0]))–\(format2(perWord[perWord.count - 1]))")
    }
    if let slowest = rows.max(by: { $0.milliseconds < $1.milliseconds }) {
        print("slowest: \(slowest.pattern) stepWords \(slowest.stepWords), \(format2(slowest.milliseconds)) ms")
    }
    let over5 = rows.filter { $0.milliseconds > 5 }
    print("over 5 ms (steps alone): \(over5.count); smallest stepWords among them: \(over5.map(\.stepWords).min() ?? 0)")
    print("refused by the step-cost limit (\(StepCostModel.maximumPicoseconds / 1_000) ns a scalar): \(refusedByCost); slowest accepted: \(format2(rows.map(\.milliseconds).max() ?? 0)) ms")

    // Realistic rule sets: none may have steps over the limit.
    let workload = RuleWorkload(ruleCount: 10_000)
    let wiremock = (0..<200).map { "^/api/res\($0)/[0-9]+/(items|orders)$" } + ["/v1/users/[0-9]+", "/v1/orders/[0-9]+/lines/[a-f0-9-]{36}", "^/assets/.*\\.(js|css|png)$"]
    var withSteps = 0, maxStepWords = 0, refused = 0
    for pattern in workload.rules.map(\.pattern) + wiremock {
        do {
            let compiled = try LinearPattern(pattern)
            if let steps = compiled.bitParallel { withSteps += 1; maxStepWords = max(maxStepWords, steps.stepWords) }
        } catch { refused += 1 }
    }
    print("realistic (RuleWorkload 10,000 + \(wiremock.count) urlPathPatterns): \(refused) refused, \(withSteps) with bit-parallel steps, max stepWords \(maxStepWords)")
}

func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}
