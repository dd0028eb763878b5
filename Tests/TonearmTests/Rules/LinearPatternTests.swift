import Testing
import TonearmWorkloads
@testable import Tonearm

/// Rule patterns are matched by Tonearm's own linear-time engine: these are the answers users rely on,
/// and the crafted patterns that used to stall the server.
@Suite("Linear-time patterns")
struct LinearPatternTests {
    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        let compiled = try LinearPattern(pattern)
        var visits = 0
        let onTable = compiled.matches(text)
        let onAutomaton = compiled.matches(text, usingTable: false, visits: &visits)
        #expect(onTable == onAutomaton, "the table and the automaton disagree on \(pattern) for \(text.prefix(40))")
        return onTable
    }

    @Test("the shapes users write", arguments: [
        ("^https://api\\.example\\.com/users/\\d+$", "https://api.example.com/users/42", true),
        ("^https://api\\.example\\.com/users/\\d+$", "https://api.example.com/users/42/x", false),
        ("^https://api\\.example\\.com/users/\\d+$", "https://apixexample.com/users/42", false),
        ("/users", "https://x.example/users/1", true),
        ("^/users/[^/]+/repos$", "/users/octo/repos", true),
        ("^/users/[^/]+/repos$", "/users/a/b/repos", false),
        ("^/(?:users|orgs)/[^/]+$", "/orgs/swift", true),
        ("^/files/.+\\.(?:png|jpe?g|gif)$", "/files/cat.jpeg", true),
        ("^/files/.+\\.(?:png|jpe?g|gif)$", "/files/cat.jpg.txt", false),
        ("^/[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$", "/0123abcd-0000-1111-2222-333344445555", true),
        ("^/ip/(\\d{1,3}\\.){3}\\d{1,3}$", "/ip/10.0.0.1", true),
        ("^/ip/(\\d{1,3}\\.){3}\\d{1,3}$", "/ip/10.0.0.1234", false),
        ("(?i)^/LOGIN$", "/login", true),
        ("^/(?i:LOGIN)/X$", "/login/x", false),
        ("^/a.c$", "/a\nc", false),
        ("(?s)^/a.c$", "/a\nc", true),
        ("^/end$", "/end\n", true),
        ("^/end\\z", "/end\n", false),
        ("(?m)^b$", "a\nb\nc", true),
        ("^b$", "a\nb\nc", false),
        ("\\bcat\\b", "a cat sat", true),
        ("\\bcat\\b", "concatenate", false),
        ("\\Bcat\\B", "concatenate", true),
        ("^\\Q/a.b?\\E$", "/a.b?", true),
        ("^\\Q/a.b?\\E$", "/axb", false),
        ("^(?x) / users / \\d+ # the id\n $", "/users/7", true),
        ("^[[:alpha:]]+\\p{Digit}$", "abc7", true),
        ("^caf\\u00e9$", "café", true),
        ("(?:^|[^\\p{L}\\p{N}])v1[^\\p{L}\\p{N}]*$", "/api/v1/", true),
        ("^\\p{L}+\\p{N}$", "héllo7", true),
        ("^caf.$", "café", true),
        ("^/é+$", "/ééé", true),
        ("^\\x41\\u{42}$", "AB", true),
        ("^/items(?:/[0-9]+){0,3}$", "/items/1/2/3", true),
        ("^/items(?:/[0-9]+){0,3}$", "/items/1/2/3/4", false),
        ("^/a{2,}$", "/aaa", true),
        ("^/a{,2}$", "/aaa", false),
        ("^/x{2}?$", "/xx", true),
        ("a{", "a{", true),
        ("^$", "", true),
        ("", "anything", true),
        ("^/(|x)$", "/", true),
    ])
    func usualShapes(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try Self.matches(pattern, text) == expected, "\(pattern) on \(text.debugDescription)")
    }

    /// Patterns from the docs, README, tests, the rule workload and the WireMock corpus (as the importer
    /// wraps them), plus common real-world shapes: none may be refused, and each answers as Swift `Regex`
    /// does on a URL it should match and one it should not.
    static let realisticPatterns = [
        ".*", "^/ok", "^/search$", "/users", "\\?a=1&b=2$", "^[0-9]+$",
        "^https://api\\.example\\.com/users/\\d+$", "^https://api\\.example\\.com/orders",
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
        // Shapes the old backtracking check refused, which a linear engine runs safely.
        "^/(a+)+$", "^/(a|aa)+$", "^/.*a.*b.*c$", "^/(?:\\w+\\s?)*$",
    ]

    static let sampleTexts = [
        "/ok", "/search", "https://api.example.com/users/42", "/api/v1/items/7", "/users/x/repos/y/issues/3",
        "/files/a.png", "/ip/1.2.3.4", "/login", "/xaxb", "Bearer abc.def=", "application/json; charset=utf-8",
        "{\"a\": 1}", "/items/1/2", "/aaaa", "/a-b-c", "/0123abcd-0000-1111-2222-333344445555", "",
    ]

    @Test("realistic patterns are accepted and answer as Swift Regex does")
    func realisticPatterns() throws {
        for pattern in Self.realisticPatterns {
            let compiled = try LinearPattern(pattern)
            let regex = try Regex(pattern)
            for text in Self.sampleTexts {
                #expect(compiled.matches(text) == text.contains(regex), "\(pattern) on \(text)")
            }
        }
        _ = try RuleSet(Self.realisticPatterns.map { Rule(pattern: $0, response: Response()) })
    }

    @Test("the rule workload's patterns are accepted")
    func workloadPatternsAccepted() throws {
        for rule in RuleWorkload(ruleCount: 200, seed: 7).rules { _ = try LinearPattern(rule.pattern) }
    }

    // MARK: Crafted patterns

    static func url(_ length: Int, of filler: String = "a", ending: String = "") -> String {
        "/" + String(repeating: filler, count: length) + ending
    }

    @Test("the issue's crafted patterns answer correctly, each within a generous bound", arguments: [
        ("^/(?x)(a | a)+$", url(25), true),
        ("^/(?x)(a | a)+$", url(25, ending: "!"), false),
        ("^/(?x)(a | a)+$", url(80_000, ending: "!"), false),
        ("^/.*a.*b$", url(32 * 1024), false),
        ("^/.*a.*b$", url(80 * 1024), false),
        ("^/.*a.*b$", url(80 * 1024, ending: "b"), true),
        ("^/(a+)+$", url(80_000, ending: "!"), false),
        ("^/(a*)*b$", url(80_000), false),
        ("(a|aa)*c", url(80_000), false),
        ("(a|aa)*c", url(80_000, ending: "c"), true),
        ("^/.*a.*b.*c.*d$", url(80_000, of: "abc"), false),
        ("(a|b)*a(a|b){12}", url(80_000, of: "b", ending: "a" + String(repeating: "b", count: 11)), false),
        ("(a|b)*a(a|b){12}", url(80_000, of: "b", ending: "a" + String(repeating: "b", count: 12)), true),
        ("(a|b)*a(a|b){12}", url(40_000, of: "ab"), true),
        ("(x+x+)+y", url(80_000, of: "x"), false),
        ("^/(\\w+\\s?)*$", url(80_000, of: "ab ", ending: "!"), false),
    ])
    func craftedPatterns(_ pattern: String, _ text: String, _ expected: Bool) throws {
        let compiled = try LinearPattern(pattern)
        let clock = ContinuousClock()
        var answer: Bool?
        let elapsed = clock.measure { answer = compiled.matches(text) }
        #expect(answer == expected, "\(pattern) on \(text.utf8.count) bytes")
        // Generous (debug build, shared machine): the old engine took 11 s to 52 s on these.
        #expect(elapsed < .seconds(5), "\(pattern) took \(elapsed)")
    }

    // MARK: Linearity

    @Test("work grows linearly with the text: double the text, at most double the work, within text × program size",
          arguments: ["^/(?x)(a | a)+$", "^/.*a.*b$", "(a|aa)*c", "(a|b)*a(a|b){12}", "^/(a*)*b$", "\\b(a|ab)*\\B!"])
    func linearWork(_ pattern: String) throws {
        let compiled = try LinearPattern(pattern)
        let size = compiled.automaton.size
        func work(_ length: Int, usingTable: Bool) -> Int {
            var visits = 0
            _ = compiled.matches(Self.url(length, of: "ab"), usingTable: usingTable, visits: &visits)
            return visits
        }
        for usingTable in [false, true] {
            let single = work(5_000, usingTable: usingTable)
            let double = work(10_000, usingTable: usingTable)
            #expect(double <= 2 * single + 2 * size, "\(pattern): \(single) visits for n, \(double) for 2n")
            // Each scalar visits each instruction at most twice (once crossing it, once entering it).
            #expect(double <= 2 * (2 * 10_000 + 2) * size, "\(pattern): \(double) visits, program size \(size)")
        }
    }

    @Test("a pattern whose table would be huge keeps a bounded table and still answers")
    func boundedTable() throws {
        let compiled = try LinearPattern("(a|b)*a(a|b){12}")
        #expect(!compiled.dfa.isComplete)
        #expect(compiled.dfa.transitions.count <= PatternDFA.maximumCells)
        let simple = try LinearPattern("^/users/[^/]+/repos/\\d+$")
        #expect(simple.dfa.isComplete)
    }

    @Test("off the shared table, the bit-parallel steps agree with the automaton",
          arguments: [
            // 8,192 states: more than the shared table holds.
            ("(a|b)*a(a|b){12}$", 20_000),
            ("a[ab]{12}c", 20_000),
            ("a[ab]{12}$", 20_000),
            // The build budget leaves shared states unexpanded; a thousand threads live nearly every scalar.
            ("(?:a?){500}a.{990}x", 1_500),
            ("a.{1000}.{500}\\z", 2_000),
          ])
    func offTableAgrees(_ pattern: String, _ length: Int) throws {
        // Without the step-cost limit: `(?:a?){500}a.{990}x` is just over it, and this checks what the steps compute.
        let compiled = try LinearPattern(pattern, separatingPrefix: true, limitingStepCost: false)
        #expect(!compiled.dfa.isComplete)
        var texts = ["/" + String(repeating: "a", count: length), "/" + String(repeating: "a", count: length / 2) + AdversarialText.ab(length / 2, seed: 9)]
        for tail in ["", "c", "x", "a", "\n"] { texts.append("/" + AdversarialText.ab(length, seed: UInt64(texts.count)) + tail) }
        for text in texts {
            var visits = 0
            let automaton = compiled.matches(text, usingTable: false, visits: &visits)
            #expect(compiled.matches(text, usingTable: true, visits: &visits) == automaton,
                    "\(pattern) on \(text.suffix(20).debugDescription)")
        }
    }

    @Test("patterns that differ only in their literal prefix share one table, and each still checks its own prefix")
    func sharedTables() throws {
        var cache = PatternCache()
        func compile(_ pattern: String) throws -> LinearPattern {
            try LinearPattern(parsed: try PatternParser.parse(pattern), source: pattern, cache: &cache)
        }
        let first = try compile("^https://api\\.example\\.com/v1/res1/[0-9]+/items$")
        let second = try compile("^https://api\\.example\\.com/v1/res22/[0-9]+/items$")
        let other = try compile("^https://api\\.example\\.com/v1/res3/[a-z]+/items$")
        let tables = [first, second, other].map { $0.dfa.transitions.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(tables[0] == tables[1], "one table for the same program after the prefix")
        #expect(tables[0] != tables[2], "another program, another table")
        #expect(first.matches("https://api.example.com/v1/res1/42/items"))
        #expect(!first.matches("https://api.example.com/v1/res22/42/items"))
        #expect(second.matches("https://api.example.com/v1/res22/42/items"))
        #expect(!second.matches("https://api.example.com/v1/res1/42/items"))
        #expect(other.matches("https://api.example.com/v1/res3/abc/items") && !other.matches("https://api.example.com/v1/res3/42/items"))
    }

    @Test("a pattern near the size cap builds its table within the visit budget")
    func boundedBuild() throws {
        let compiled = try LinearPattern("(?:a?){500}a.{990}x", separatingPrefix: true, limitingStepCost: false)
        #expect(!compiled.dfa.isComplete)
        // The budget is checked before each state's row, so it is overshot by at most one row.
        #expect(compiled.dfa.transitions.count < PatternDFA.maximumCells)
    }

    @Test("the bound on matching work is 0 for patterns whose table is complete, and follows the wide rules an engine holds")
    func matchingWorkBound() throws {
        #expect(try LinearPattern("^/users/[0-9]+(\\?.*)?$").worstVisitsPerScalar == 0)
        #expect(try LinearPattern("^/.*a.*b$").worstVisitsPerScalar == 0)
        let wide = try LinearPattern("a.{1000}.{990}x")
        let steps = try #require(wide.bitParallel)
        #expect(wide.worstVisitsPerScalar > 0, "a match can leave the table")
        #expect(wide.worstVisitsPerScalar * LinearPattern.wordOperationsPerVisit >= steps.stepWords,
                "the bound covers a bit-parallel step, however many of its 1,992 positions are live")

        let engine = ReplayEngine(tracks: [])
        let narrow = try engine.add(Rule(pattern: "^/users/[0-9]+$", target: .path, response: Response()))
        #expect(engine.worstPatternVisitsPerScalar == 0)
        let first = try engine.add(Rule(pattern: "a.{1000}.{990}x", target: .path, response: Response()))
        let second = try engine.add(Rule(pattern: "^/x", target: .path, headers: [HeaderCondition("X-Id", .matches("a.{1000}.{990}x"))], response: Response()))
        #expect(engine.worstPatternVisitsPerScalar == 2 * wide.worstVisitsPerScalar, "a header pattern counts as much as the rule's own")
        #expect(engine.remove(first) && engine.remove(second) && engine.remove(narrow))
        #expect(engine.worstPatternVisitsPerScalar == 0, "removed rules cost nothing")
    }
}
