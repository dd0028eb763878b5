import PropertyBased
import Testing
import TonearmWorkloads
@testable import Tonearm

/// Readers check a file's patterns with `LinearPattern.check` (no table built) before the rule set
/// compiles them: it must refuse exactly what compiling refuses, with the same problem, but for the
/// step-cost limit, which only compiling applies.
@Suite("Pattern checks without compiling")
struct PatternCheckTests {
    static func outcome(_ body: () throws(PatternProblem) -> Void) -> PatternProblem? {
        do throws(PatternProblem) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    static func expectSameVerdict(_ pattern: String) {
        let checked = outcome { () throws(PatternProblem) in try LinearPattern.check(pattern) }
        let compiled = outcome { () throws(PatternProblem) in _ = try LinearPattern(pattern) }
        // The step-cost limit needs the table built (only a pattern whose table is incomplete has steps),
        // so only compiling applies it.
        if checked == nil, let compiled, compiled.message.hasPrefix("the pattern is too costly to match") { return }
        #expect(checked == compiled, "\(pattern.debugDescription): check \(String(describing: checked)), compile \(String(describing: compiled))")
    }

    @Test("the shapes users write, the refused constructs and the size cap: the same verdict", arguments: [
        "^https://api\\.example\\.com/v1/res17/[0-9]+/items$", "^/api/res3/[0-9]+/(items|orders)$", "(a|b)*c",
        "^(?:(?s)/v1/.*)\\z", "(", ")", "a{2,1}", "(?=x)", "(?<=x)y", "(a)\\1", "[z-a]", "a**", "x{100000}",
        "(?:a{1000}){1000}", "\\p{Greek}+", "[[:alpha:]]", "(?i)abc", "\\", "a{,3}", "",
    ])
    func crafted(_ pattern: String) {
        Self.expectSameVerdict(pattern)
    }

    @Test("the rule workload's patterns pass both")
    func workload() {
        for rule in RuleWorkload(ruleCount: 400, seed: 5).rules { Self.expectSameVerdict(rule.pattern) }
    }

    @Test("random token strings: check refuses exactly what compiling refuses")
    func randomPatterns() async {
        let tokens = ["a", "b", "(", ")", "(?:", "[0-9]", "[", "]", "+", "*", "?", "{2,3}", "{900}", "|", "\\d", "^", "$",
                      ".", "\\1", "(?=", "\\", "{", "}", "-", "(?i)", "\\z", "é"]
        await propertyCheck(count: 400, input: Gen.int(in: 0...(tokens.count - 1)).array(of: 0...10)) { picks in
            Self.expectSameVerdict(picks.map { tokens[$0] }.joined())
        }
    }
}
