import Testing
@testable import Tonearm

/// What a linear-time engine cannot run is refused when the rules load, naming the construct and where
/// it is, so the user can rewrite it.
@Suite("Pattern refusals")
struct PatternRefusalTests {
    static func refusal(_ pattern: String) -> PatternProblem? {
        do {
            _ = try LinearPattern(pattern)
            return nil
        } catch {
            return error
        }
    }

    @Test("constructs that need backtracking are refused with their name and offset", arguments: [
        ("^/(?=(a+)+$)", "lookahead `(?=` at offset 2", 2),
        ("^/(?!admin)", "negative lookahead `(?!` at offset 2", 2),
        ("(?<=/v1)/users", "lookbehind `(?<=` at offset 0", 0),
        ("x(?<!a)b", "negative lookbehind `(?<!` at offset 1", 1),
        ("^/(a)\\1$", "backreference `\\1` at offset 5", 5),
        ("(?<n>a)\\k<n>", "backreference `\\k<` at offset 7", 7),
        ("(?P<n>a)(?P=n)", "backreference `(?P=` at offset 8", 8),
        ("^/a++$", "possessive quantifier `++` at offset 3", 3),
        ("^/a{2,}+", "possessive quantifier `{2,}+` at offset 3", 3),
        ("^/(?>a+)b", "atomic group `(?>` at offset 2", 2),
        ("(?(1)a|b)", "conditional `(?(` at offset 0", 0),
        ("a(?R)?b", "recursion `(?R` at offset 1", 1),
        ("(a(?1)?b)", "recursion `(?1` at offset 2", 2),
    ])
    func unsupportedConstructs(_ pattern: String, _ named: String, _ offset: Int) throws {
        let problem = try #require(Self.refusal(pattern))
        #expect(problem.message.hasPrefix(named), "\(problem.message)")
        #expect(problem.message.contains("is not supported: Tonearm matches patterns in time linear in the text"))
        #expect(problem.offset == offset)
    }

    @Test("counted repetition is refused by program size, naming the repetition", arguments: [
        ("(a{100}){100}", 0), ("^/x(?:[a-z]{1000}){3}", 3), ("^/.{1000}.{1000}.{1000}", 9),
    ])
    func programSize(_ pattern: String, _ offset: Int) throws {
        let problem = try #require(Self.refusal(pattern))
        #expect(problem.message.contains("the pattern is too large"))
        #expect(problem.message.contains("more than the 2000 allowed"))
        #expect(problem.offset == offset, "\(problem.message)")
        #expect(Self.refusal("^/a{1000}$") == nil, "one large count is within the cap")
    }

    @Test("a pattern whose bit-parallel step would cost more than 5 ms on an 80 KB URL is refused, naming the pattern, its cost and the limit", arguments: [
        // The worst found by the random sample of docs/benchmarks.md, "Step-cost limit" (about 230 ms on 80 KB
        // before the limit).
        "(?:(((?:\\w|)|((?s:.)|(?m:$)))(?:(?:\\b)+|)|(?:((?s:.)b|(?m:$))){3,5})){44}c",
        // Over the limit in the sample: 5–11 ms on 80 KB without it.
        "(?:\\w(?:\\B)?(\\A|(x|$))){176}c",
        "(?:(?:(?:(?s:.)\\B){3,5})?\\W){109}é",
    ])
    func stepCost(_ pattern: String) throws {
        let problem = try #require(Self.refusal(pattern))
        #expect(problem.message.hasPrefix("the pattern is too costly to match: `\(pattern.prefix(60))"), "\(problem.message)")
        #expect(problem.message.contains("more than the \(StepCostModel.maximumPicoseconds / 1_000) ns allowed (5 ms on an 80 KB URL)"))
        let unlimited = try LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false)
        let steps = try #require(unlimited.bitParallel)
        #expect(steps.stepCost > StepCostModel.maximumPicoseconds)
        #expect(problem.message.contains("about \((steps.stepCost + 500) / 1_000) ns"), "\(problem.message)")
    }

    @Test("malformed patterns say what and where", arguments: [
        ("^/users/(\\d+", "group `(` at offset 8 is not closed"),
        ("[a-", "class `[` at offset 0 is not closed"),
        ("^/a)", "unmatched `)` at offset 3"),
        ("*a", "quantifier `*` at offset 0 has nothing to repeat"),
        ("^/[z-a]", "range `z-a` at offset 3 is out of order"),
        ("a{1001}", "counts past 1000"),
        ("a**", "follows another quantifier"),
        ("\\q", "unknown escape `\\q` at offset 0"),
        ("(?z)", "option `z` at offset 2 is not supported"),
        ("[[a]]", "nested class `[` at offset 1"),
        ("[a&&b]", "class intersection `&&` at offset 2"),
        ("\\p{Greek}", "property `\\p{Greek}` at offset 0 is not supported"),
        ("abc\\", "lone `\\` at offset 3"),
    ])
    func malformed(_ pattern: String, _ message: String) throws {
        let problem = try #require(Self.refusal(pattern))
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test("groups nested too deeply are refused before the parser recurses further")
    func deepNesting() throws {
        let deep = String(repeating: "(", count: 5_000) + "a" + String(repeating: ")", count: 5_000)
        let problem = try #require(Self.refusal(deep))
        #expect(problem.message.contains("groups nest more than 32 levels deep at offset 32"))
        #expect(Self.refusal(String(repeating: "(?:", count: 32) + "a" + String(repeating: ")", count: 32)) == nil)
        #expect(Self.refusal(String(repeating: "[", count: 5_000)) != nil)
    }

    @Test("a rule set refuses them naming the rule; query, header and body conditions are checked too")
    func ruleSetRefuses() throws {
        let rules: [Rule] = [
            Rule(name: "url", pattern: "^/(?=(a+)+$)", response: Response()),
            Rule(name: "header", pattern: ".*", headers: [HeaderCondition("Accept", .matches("(a)\\1"))], response: Response()),
            Rule(name: "query", pattern: ".*", query: [QueryCondition("id", .matches("(?<=x)1"))], response: Response()),
            Rule(name: "body", pattern: ".*", body: [BodyCondition(try JSONPointer("/a"), .matches("a++"))], response: Response()),
        ]
        for rule in rules {
            let error = try #require(throws: RuleError.self) { try RuleSet([Rule(name: "ok", pattern: "^/ok$", response: Response()), rule]) }
            #expect(error.ruleIndex == 1)
            #expect(error.ruleName == rule.name)
            #expect(error.message.contains("is not supported: Tonearm matches patterns in time linear in the text"), "\(error.message)")
        }
    }
}
