import PropertyBased
import Testing
import TonearmWorkloads
@testable import Tonearm

/// A match that leaves a pattern's shared table runs on bit-parallel steps (issue 33): these check that
/// they answer exactly as the automaton does (and as Swift `Regex` does where both apply), on generated
/// patterns that span one word of stops and many, with every assertion, and on the crafted worst cases.
@Suite("Bit-parallel pattern steps")
struct BitParallelAutomatonTests {
    typealias SplitMix = PatternDifferentialTests.SplitMix

    static let atoms = ["a", "b", "c", "x", ".", "[ab]", "[^a]", "[a-c1]", "\\w", "\\W", "\\d", "\\s", "é", "[é-ü]", "😀", "\\n", "(?s:.)", "(?i:a)"]
    static let assertions = ["^", "$", "\\b", "\\B", "\\A", "\\z", "\\Z", "(?m:^)", "(?m:$)"]
    static let repeats = ["*", "+", "?", "{2}", "{1,3}", "{0,4}", "{2,}", "*?", "{3,5}"]

    /// A pattern of nested groups, alternations (some with an empty branch), repetitions and assertions.
    static func node(_ random: inout SplitMix, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 12), using: &random) {
        case 0, 1, 2: return atoms.randomElement(using: &random) ?? "a"
        case 3: return assertions.randomElement(using: &random) ?? "^"
        case 4, 5: return "(" + node(&random, depth: depth + 1) + "|" + node(&random, depth: depth + 1) + ")"
        case 6: return "(?:" + node(&random, depth: depth + 1) + "|)"
        case 7, 8: return "(?:" + node(&random, depth: depth + 1) + ")" + (repeats.randomElement(using: &random) ?? "*")
        default: return node(&random, depth: depth + 1) + node(&random, depth: depth + 1)
        }
    }

    static let alphabet: [String] = ["a", "b", "c", "x", "1", " ", "_", "é", "ü", "😀", "\n", "/"]

    static func text(_ random: inout SplitMix, maximumLength: Int) -> String {
        (0..<Int.random(in: 0...maximumLength, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined()
    }

    /// The bit-parallel steps, the production path and the automaton agree on `text`.
    static func expectAgreement(_ compiled: LinearPattern, _ pattern: String, _ text: String, seed: UInt64? = nil,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        var visits = 0
        let automaton = compiled.matches(text, usingTable: false, visits: &visits)
        #expect(compiled.matchesBitParallel(text, visits: &visits) == automaton,
                "\(pattern.debugDescription) on \(text.debugDescription): bit-parallel steps against the automaton (seed \(seed.map(String.init) ?? "-"))",
                sourceLocation: sourceLocation)
        #expect(compiled.matches(text) == automaton,
                "\(pattern.debugDescription) on \(text.debugDescription): tables then bit-parallel steps against the automaton (seed \(seed.map(String.init) ?? "-"))",
                sourceLocation: sourceLocation)
    }

    @Test("generated patterns (anchors, word boundaries, classes, unicode, counted and nested repetition, empty branches): the same answers as the automaton")
    func agreesWithAutomaton() async {
        await propertyCheck(count: 600, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let pattern = Self.node(&random, depth: 0)
            guard let compiled = try? LinearPattern(pattern) else { return }
            for _ in 0..<10 { Self.expectAgreement(compiled, pattern, Self.text(&random, maximumLength: 14), seed: seed) }
        }
    }

    @Test("generated patterns spanning many words of stops (a group repeated tens of times): the same answers as the automaton")
    func wideAgreesWithAutomaton() async {
        await propertyCheck(count: 50, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let low = Int.random(in: 0...30, using: &random)
            let high = low + Int.random(in: 0...40, using: &random)
            let pattern = Self.node(&random, depth: 2) + "(?:" + Self.node(&random, depth: 2) + "){\(low),\(high)}" + Self.node(&random, depth: 3)
            // Compiled whatever its step costs, so the steps of the patterns the limit refuses (fills,
            // shifts and fan-outs over many words) stay checked too.
            guard let compiled = try? LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false) else { return }
            for _ in 0..<6 {
                // Runs of one scalar keep many stops live; random text moves them apart.
                let run = String(repeating: Self.alphabet.randomElement(using: &random) ?? "a", count: Int.random(in: 0...150, using: &random))
                Self.expectAgreement(compiled, pattern, Self.text(&random, maximumLength: 20) + run + Self.text(&random, maximumLength: 60), seed: seed)
            }
        }
    }

    @Test("generated patterns and texts: the bit-parallel steps give the same match/no-match as Swift Regex")
    func agreesWithSwiftRegex() async {
        await propertyCheck(count: 300, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let pattern = PatternDifferentialTests.pattern(&random)
            guard let regex = try? Regex(pattern), let compiled = try? LinearPattern(pattern) else { return }
            for _ in 0..<10 {
                let text = PatternDifferentialTests.text(&random)
                var visits = 0
                #expect(compiled.matchesBitParallel(text, visits: &visits) == text.contains(regex),
                        "\(pattern.debugDescription) on \(text.debugDescription) (seed \(seed))")
            }
        }
    }

    @Test("the worst cases of docs/benchmarks.md leave the table, find the match where there is one and none where there is not",
          arguments: [
            // `x` exactly 1,991 scalars after an `a`, or one short.
            ("a.{1000}.{990}x", "/" + String(repeating: "b", count: 30) + "a" + String(repeating: "b", count: 1_990) + "x", true),
            ("a.{1000}.{990}x", "/" + String(repeating: "b", count: 30) + "a" + String(repeating: "b", count: 1_989) + "x", false),
            ("a.{1000}.{990}x", "/x" + String(repeating: "a", count: 5_000), false),
            ("(?:a?){500}a.{990}x", "/" + String(repeating: "a", count: 1_200) + "x", true),
            ("(?:a?){500}a.{990}x", "/" + String(repeating: "b", count: 100) + "a" + String(repeating: "b", count: 990) + "x", true),
            ("(?:a?){500}a.{990}x", "/" + String(repeating: "b", count: 100) + "a" + String(repeating: "b", count: 989) + "x", false),
            ("(?:a?){500}a.{990}x", "/x" + String(repeating: "a", count: 5_000), false),
            ("(a|b)*a(a|b){12}", "/" + String(repeating: "abbbbbbbbbbbc", count: 300), false),
            ("(a|b)*a(a|b){12}", "/" + String(repeating: "abbbbbbbbbbbc", count: 300) + "abbbbbbbbbbbb", true),
            ("a.{1000}.{500}\\z", "/" + AdversarialText.ab(3_000, seed: 7) + "a" + String(repeating: "b", count: 1_500), true),
            ("a.{1000}.{500}\\z", "/" + AdversarialText.ab(3_000, seed: 7) + "a" + String(repeating: "b", count: 1_501), false),
            ("^/(a|b|c|d|e)*x(.{1,40})*y$", "/abcdex" + AdversarialText.ab(3_000, seed: 3) + "y", true),
            ("^/(a|b|c|d|e)*x(.{1,40})*y$", "/abcdex" + AdversarialText.ab(3_000, seed: 3), false),
          ])
    func worstCases(_ pattern: String, _ text: String, _ expected: Bool) throws {
        // `(?:a?){500}a.{990}x` is over the step-cost limit (its estimate, 60 ns a scalar, is above the
        // 56 allowed): compiled without it, since these check what the steps compute.
        let compiled = try LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false)
        var visits = 0
        #expect(compiled.matchesBitParallel(text, visits: &visits) == expected)
        #expect(compiled.matches(text) == expected)
        #expect(compiled.matches(text, usingTable: false, visits: &visits) == expected)
    }

    @Test("generated wide patterns: the engine accepts exactly those whose estimated step cost is within the limit")
    func acceptsWithinTheStepCostLimit() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let count = Int.random(in: 20...200, using: &random)
            let pattern = "(?:" + Self.node(&random, depth: 1) + "){\(count)}" + (Self.atoms.randomElement(using: &random) ?? "a")
            guard let unlimited = try? LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false) else { return }
            let withinLimit = (unlimited.bitParallel?.stepCost ?? 0) <= StepCostModel.maximumPicoseconds
            let accepted = (try? LinearPattern(pattern)) != nil
            #expect(accepted == withinLimit, "\(pattern.debugDescription): step cost \(unlimited.bitParallel?.stepCost ?? 0) ps (seed \(seed))")
        }
    }

    @Test("the worst cases of docs/benchmarks.md that meet 5 ms on 80 KB with room to spare are within the step-cost limit",
          arguments: ["a.{1000}.{990}x", "(?:a?){400}a.{990}x", "(a|b)*a(a|b){12}", "\\b(a|b)*a(a|b){12}\\b", "(?m)^(a|b)*a(a|b){12}$"])
    func knownWorstCasesAreAccepted(_ pattern: String) throws {
        let compiled = try LinearPattern(pattern)
        let steps = try #require(compiled.bitParallel)
        #expect(steps.stepCost <= StepCostModel.maximumPicoseconds)
    }

    @Test("the realistic rule sets' patterns (URL and WireMock-style path patterns) are never refused by the step-cost limit")
    func realisticPatternsAreAccepted() throws {
        let patterns = RuleWorkload(ruleCount: 2_000).rules.map(\.pattern)
            + ["^/api/res17/[0-9]+/(items|orders)$", "/v1/users/[0-9]+", "^/assets/.*\\.(js|css|png)$", "^/users/[^/]+/repos/\\d+$"]
        for pattern in patterns {
            #expect((try? LinearPattern(pattern)) != nil, "\(pattern)")
        }
    }

    @Test("a step's cost follows the pattern's width, not how many of its positions are live")
    func stepCostIsBounded() throws {
        for pattern in ["a.{1000}.{990}x", "(?:a?){500}a.{990}x"] {
            let compiled = try LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false)
            let steps = BitParallelAutomaton(compiled.automaton)
            // All `a` keeps nearly every stop of these patterns live, all `c` none but the start's; the
            // work is the same.
            var busy = 0, idle = 0
            #expect(!compiled.matchesBitParallel(String(repeating: "a", count: 3_000), visits: &busy))
            #expect(!compiled.matchesBitParallel(String(repeating: "c", count: 3_000), visits: &idle))
            #expect(busy == idle, "\(pattern): \(busy) word operations on `a…`, \(idle) on `c…`")
            #expect(busy == 3_001 * steps.stepWords)
            // Near the size cap (2,001 stops at most, 32 words): a few operations per word.
            #expect(steps.stepWords <= 4 * steps.wordCount + 16, "\(pattern): \(steps.stepWords) word operations a step")
        }
    }

    /// `a` followed by 11 random `a`/`b` and a `c`, repeated: `(a|b)*a(a|b){12}` never matches it, and it
    /// keeps the match off the shared table.
    static func blocksOfTwelve(_ count: Int) -> String {
        let random = Array(AdversarialText.ab(count, seed: 11))
        return stride(from: 0, to: count - 11, by: 11).map { "a" + String(random[$0..<$0 + 11]) + "c" }.joined()
    }

    @Test("a match that leaves the table continues from the table state's threads and context",
          arguments: ["\\b(a|b)*a(a|b){12}\\b", "(?m)^(a|b)*a(a|b){12}$", "(a|b)*a(a|b){12}\\B", "(a|b)*a(a|b){12}\\z"])
    func takesOverFromTheTable(_ pattern: String) throws {
        let compiled = try LinearPattern(pattern)
        #expect(!compiled.dfa.isComplete)
        let blocks = Self.blocksOfTwelve(3_000)
        for tail in ["", "abbbbbbbbbbbb", "abbbbbbbbbbbb\n", "abbbbbbbbbbbbc", "\nabbbbbbbbbbbb", "abbbbbbbbbbb"] {
            Self.expectAgreement(compiled, pattern, blocks + tail)
            Self.expectAgreement(compiled, pattern, "c\n" + blocks + tail)
        }
    }
}
