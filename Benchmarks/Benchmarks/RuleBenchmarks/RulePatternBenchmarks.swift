import Benchmark
import BenchmarkSupport
import Tonearm

/// Issue 18: one rule over an 80 KB path, through the engine's public matching (`ReplayEngine.match`,
/// which also canonicalises the URL), for the shapes users write and the crafted patterns that used to
/// stall the server. "literal miss" is the cost of canonicalising the URL and rejecting it by prefix,
/// the floor under every other line. Swift `Regex` (today's engine before issue 18) runs the same
/// searches where it finishes at all; on the crafted ones it took 11 s to 52 s, so it is not run.
enum LongURLPatterns {
    static let host = "http://h.example"
    /// 80 KB of path.
    static let length = 80 * 1024

    static let cases: [(name: String, pattern: String, path: String, expected: Bool, swiftRegexFinishes: Bool)] = [
        ("literal miss", "^/never$", "/" + String(repeating: "a", count: length), false, true),
        ("segments", #"^/users/[^/]+/repos/\d+$"#, "/users/" + String(repeating: "a", count: length) + "/repos/42", true, true),
        ("dot star suffix", #"^/.*\.json$"#, "/" + String(repeating: "a", count: length) + ".json", true, true),
        ("alternation", #"^/(?:users|orgs|teams)/[a-z]+$"#, "/teams/" + String(repeating: "a", count: length), true, true),
        ("dot star a dot star b", "^/.*a.*b$", "/" + String(repeating: "a", count: length), false, false),
        ("extended (a | a)+", "^/(?x)(a | a)+$", "/" + String(repeating: "a", count: length) + "!", false, false),
        ("nested (a+)+", "^/(a+)+$", "/" + String(repeating: "a", count: length) + "!", false, false),
        ("(a|aa)*c unanchored", "(a|aa)*c", "/" + String(repeating: "a", count: length), false, false),
        ("DFA blow-up (a|b)*a(a|b){12}", "(a|b)*a(a|b){12}", "/" + String(repeating: "ab", count: length / 2), true, true),
    ]
}

func registerRulePatternBenchmarks() {
    for item in LongURLPatterns.cases {
        let request = Request(url: LongURLPatterns.host + item.path)
        Benchmark("Pattern 80 KB Tonearm \(item.name)", configuration: .init(maxIterations: 2_000)) {
            (benchmark: Benchmark, engine: Box<ReplayEngine>) in
            blackHole(engine.value.match(request))
        } setup: { () throws -> Box<ReplayEngine> in
            let rules = try RuleSet([Rule(name: item.name, pattern: item.pattern, target: .path, response: Response())])
            let engine = ReplayEngine(tracks: [], strategy: .rules(rules))
            guard (engine.match(request).hit != nil) == item.expected else { throw RuleBenchmarkError.disagreement(item.name) }
            return Box(engine)
        }
        guard item.swiftRegexFinishes else { continue }
        Benchmark("Pattern 80 KB Swift Regex \(item.name)", configuration: .init(maxIterations: 200)) {
            (benchmark: Benchmark, regex: Box<Regex<AnyRegexOutput>>) in
            blackHole(item.path.contains(regex.value))
        } setup: { () throws -> Box<Regex<AnyRegexOutput>> in
            let regex = try Regex(item.pattern)
            guard item.path.contains(regex) == item.expected else { throw RuleBenchmarkError.disagreement(item.name) }
            return Box(regex)
        }
    }
}
