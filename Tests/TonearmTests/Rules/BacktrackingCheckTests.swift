import Testing
@testable import Tonearm
import TonearmWorkloads

/// A pattern that can backtrack without bound would stall every request behind it (a `Regex` match
/// cannot be interrupted), so such rules are refused when the rules load, naming the rule and the cause.
@Suite("Catastrophic patterns")
struct BacktrackingCheckTests {
    static func refusal(_ pattern: String, name: String = "greedy") -> RuleError? {
        do {
            _ = try RuleSet([Rule(name: "ok", pattern: "^/ok$", response: Response()), Rule(name: name, pattern: pattern, response: Response())])
            return nil
        } catch {
            return error
        }
    }

    @Test("nested quantifiers are refused, naming the rule and the quantifier", arguments: [
        ("^/(a+)+$", "(a+)+"),
        ("^/(a*)*$", "(a*)*"),
        ("^/(?:\\w+\\s?)*$", "(?:\\w+\\s?)*"),
        ("^/(.*a)*$", "(.*a)*"),
        ("^/(x+x+)+y$", "(x+x+)+"),
        ("^/([a-z]+)*\\.json$", "([a-z]+)*"),
        ("^/(\\d+,?){2,}$", "(\\d+,?){2,}"),
        ("^/(?<word>[a-z]+-?)+/end$", "(?<word>[a-z]+-?)+"),
    ])
    func nestedQuantifiers(_ pattern: String, _ quantifier: String) throws {
        let error = try #require(Self.refusal(pattern))
        #expect(error.ruleIndex == 1)
        #expect(error.ruleName == "greedy")
        #expect(error.description.contains("rule #1 \"greedy\""))
        #expect(error.message.contains("nested quantifier `\(quantifier)` can backtrack exponentially"))
    }

    @Test("repeated alternatives that can match the same text are refused", arguments: [
        ("^/(a|aa)+$", "a|aa"),
        ("^/(?:a|a)*b$", "a|a"),
        ("^/(?:\\d|\\w)+$", "\\d|\\w"),
        ("^/(?:ab|a[a-z])+$", "ab|a[a-z]"),
        ("^/(x|)+$", "x|"),
    ])
    func overlappingAlternatives(_ pattern: String, _ alternation: String) throws {
        let error = try #require(Self.refusal(pattern))
        #expect(error.message.contains("alternation `\(alternation)`"))
        #expect(error.message.contains("its branches can match the same text"))
    }

    @Test("three or more quantifiers that can share characters are refused", arguments: [
        ("^/.*a.*b.*c$", 3),
        (".*.*.*.*x", 5),
        ("a.*b.*c", 3),
        ("^/x(?:.*a.*b.*c)?$", 3),
        ("^/[a-z]*[a-z0-9]*[a-z]+!$", 3),
    ])
    func polynomialChains(_ pattern: String, _ degree: Int) throws {
        let error = try #require(Self.refusal(pattern))
        #expect(error.message.contains("to the power \(degree)"))
        #expect(error.message.contains("`.*`") || error.message.contains("[a-z]"))
    }

    @Test("an unanchored pattern counts its search for a start position")
    func unanchoredSearchIsALink() throws {
        #expect(Self.refusal("^/.*a.*b$") == nil)
        let error = try #require(Self.refusal("/.*a.*b$"))
        #expect(error.message.contains("the search for a starting position (no `^`)"))
    }

    @Test("query, header and body conditions are checked too")
    func conditionsAreChecked() throws {
        let header = Rule(name: "h", pattern: ".*", headers: [HeaderCondition("Accept", .matches("^(a+)+$"))], response: Response())
        let query = Rule(name: "q", pattern: ".*", query: [QueryCondition("id", .matches("(\\d|\\d\\d)+"))], response: Response())
        for rule in [header, query] {
            #expect {
                try RuleSet([rule])
            } throws: { error in
                guard let error = error as? RuleError else { return false }
                return error.ruleName == rule.name && error.message.contains("exponentially")
            }
        }
    }

    @Test("deeply nested groups and classes are refused before Swift's regex parser can overflow the stack", arguments: [
        String(repeating: "[", count: 5_000), String(repeating: "(", count: 40) + "a" + String(repeating: ")", count: 40),
    ])
    func deepNesting(_ pattern: String) throws {
        let error = try #require(Self.refusal(pattern))
        #expect(error.ruleName == "greedy")
        #expect(error.message.hasSuffix("levels deep; at most 32 are allowed"))
        #expect(Self.refusal(String(repeating: "(?:", count: 32) + "a" + String(repeating: ")", count: 32)) == nil)
    }

    @Test("possessive quantifiers and atomic groups give nothing back, so they are accepted", arguments: [
        "^/(?>a+)+$", "^/(a++)+$", "^/.*+a.*+b.*+c$",
    ])
    func possessive(_ pattern: String) {
        #expect(Self.refusal(pattern) == nil)
    }

    /// Patterns from the docs, README, tests, the rule workload and the WireMock corpus (as the importer
    /// wraps them), plus common real-world shapes. None may be refused.
    static let realisticPatterns = [
        ".*", "^/ok", "^/search$", "/users", "\\?a=1&b=2$", "^[0-9]+$",
        "^https://api\\.example\\.com/users/\\d+$", "^https://api\\.example\\.com/orders",
        "^https://api\\.example\\.com/users/[0-9]+$", "^/users/[0-9]+$",
        "^https://petstore\\.example\\.com/v1/pets/[0-9]+$", "^/v1/items/\\d+$", "^https://elsewhere\\.example/",
        "/orders/export\\.csv$", "^/assets/app/v[0-9]+/[a-z0-9-]+\\.js$",
        "^https://api7\\.example\\.com/v1/users/[0-9]+(\\?.*)?$",
        "^(?:.*)$", "^(?:/([0-9]+)/url-path-pattern/)$", "^(?:https?://[^/]+)?(?:^.*[0-9]{3}/hello-url-matcher/)$",
        "^(?:application/vnd\\.fraud\\.v1\\+json.*)$",
        "^/api/.*$", "^/api/.*/items/.*$", "^/api/.*/items/[0-9]+$", "^/api/v[12]/.*\\.json$",
        "^/users/[^/]+/repos/[^/]+/issues/\\d+$", "^/(?:users|orgs)/[^/]+$", "^/files/.+\\.(?:png|jpe?g|gif)$",
        "^https://[a-z0-9.-]+\\.example\\.com/.*$", "^/search\\?q=[^&]*(&page=\\d+)?$",
        "^/v1/(?:pets|owners)(?:/\\d+)*$", "^(/[a-z0-9_-]+)+/?$", "^/[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$",
        "^/ip/(\\d{1,3}\\.){3}\\d{1,3}$", "(?i)^/LOGIN$", "^/.*a.*b$", "a.*b", "^Bearer [A-Za-z0-9._~+/-]+=*$",
        "^application/(?:[a-z.+-]+\\+)?json(?:;.*)?$", "^\\s*\\{.*\\}\\s*$", "^/items(?:/[0-9]+){0,3}$",
    ]

    @Test("realistic patterns are accepted")
    func realisticPatternsAccepted() throws {
        for pattern in Self.realisticPatterns {
            #expect(BacktrackingCheck.problem(in: pattern) == nil, "\(pattern)")
        }
        let rules = Self.realisticPatterns.map { Rule(pattern: $0, response: Response()) }
        _ = try RuleSet(rules)
    }

    @Test("the rule workload's patterns are accepted")
    func workloadPatternsAccepted() throws {
        for rule in RuleWorkload(ruleCount: 200, seed: 7).rules {
            #expect(BacktrackingCheck.problem(in: rule.pattern) == nil, "\(rule.pattern)")
        }
    }
}
