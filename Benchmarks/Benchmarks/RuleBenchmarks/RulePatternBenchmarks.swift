import Benchmark
import BenchmarkSupport
import Tonearm
import TonearmWorkloads

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

/// Issue 18's worst cases: patterns whose shared DFA table fills, against 80 KB paths chosen so that the
/// match keeps leaving the table and never succeeds early (a match that succeeds after 14 scalars, as
/// `(a|b)*a(a|b){12}` does on `abab…`, measures nothing). Each text starts with the pattern's required
/// literals, so the rule's byte-search prefilter lets it through to the pattern. The widest pattern fits
/// the 2,000-instruction cap and keeps almost every instruction live on every scalar.
enum WorstCasePatterns {
    static func randomAB(_ count: Int) -> String { AdversarialText.ab(count, seed: 0x9E37_79B9_7F4A_7C15) }

    /// `a` followed by 11 random `a`/`b` and a `c`, repeated: every 13-scalar window holds a different
    /// mix of `a` and `b`, but no `a` is followed by 12 of them, so `(a|b)*a(a|b){12}` never matches.
    static func blocksOfTwelve(_ count: Int) -> String {
        let random = Array(randomAB(count + 13).unicodeScalars)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while scalars.count < count {
            scalars.append("a")
            scalars.append(contentsOf: random[index..<index + 11])
            scalars.append("c")
            index += 13
        }
        return String(scalars)
    }

    static let length = LongURLPatterns.length
    /// 19 `a` among `b`: one short of what `(.*a){20}` needs.
    static let nineteenA: String = {
        var scalars = Array(String(repeating: "b", count: length).unicodeScalars)
        for index in stride(from: 100, to: 100 + 19 * 4_000, by: 4_000) { scalars[index] = "a" }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }()

    /// The widest optional run the step-cost limit accepts (docs/limits.md: `(?:a?){500}a.{990}x`, the
    /// widest found within the size cap, is just over it): `(?:a?){400}` puts 800 instructions in every
    /// step's restart closure (the search is unanchored) and `.{990}` keeps a thread per preceding `a`
    /// alive for 990 scalars.
    static let widest = "(?:a?){400}a.{990}x"

    static let cases: [(name: String, pattern: String, path: String)] = [
        ("(a|b)*a(a|b){12} on a+11 random ab+c", "(a|b)*a(a|b){12}", "/" + blocksOfTwelve(length)),
        ("(.*a){20} on 19 a", "(.*a){20}", "/" + nineteenA),
        ("^/(a|b|c|d|e)*x(.{1,40})*y$ on random ab", "^/(a|b|c|d|e)*x(.{1,40})*y$", "/abcdex" + randomAB(length)),
        ("a.{1990}x on all a", "a.{1000}.{990}x", "/x" + String(repeating: "a", count: length)),
        ("a.{1990}x on random ab", "a.{1000}.{990}x", "/x" + randomAB(length)),
        ("(?:a?){400}a.{990}x on all a", widest, "/x" + String(repeating: "a", count: length)),
        ("(?:a?){400}a.{990}x on random ab", widest, "/x" + randomAB(length)),
    ]

    /// Load time: compiling one rule builds its DFA table; these fill it with the costliest steps.
    static let compiled: [(name: String, pattern: String)] = [
        ("^/.{1000}x", "^/.{1000}x"),
        ("(a|b)*a(a|b){12}", "(a|b)*a(a|b){12}"),
        ("a.{1990}x", "a.{1000}.{990}x"),
        ("(?:a?){400}a.{990}x", widest),
    ]
}

func registerWorstCasePatternBenchmarks() {
    for item in WorstCasePatterns.cases {
        let request = Request(url: LongURLPatterns.host + item.path)
        Benchmark("Pattern worst 80 KB \(item.name)", configuration: .init(maxDuration: .seconds(3), maxIterations: 1_000)) {
            (benchmark: Benchmark, engine: Box<ReplayEngine>) in
            blackHole(engine.value.match(request))
        } setup: { () throws -> Box<ReplayEngine> in
            let rules = try RuleSet([Rule(name: item.name, pattern: item.pattern, target: .path, response: Response())])
            let engine = ReplayEngine(tracks: [], strategy: .rules(rules))
            // None of these texts holds a match: a hit would mean the search stopped early.
            guard engine.match(request).hit == nil else { throw RuleBenchmarkError.disagreement(item.name) }
            return Box(engine)
        }
    }
    for item in WorstCasePatterns.compiled {
        let rule = Rule(name: item.name, pattern: item.pattern, target: .path, response: Response())
        Benchmark("Pattern worst compile \(item.name)", configuration: .init(maxDuration: .seconds(3), maxIterations: 200)) {
            benchmark in
            blackHole(try RuleSet([rule]))
        }
    }
}
