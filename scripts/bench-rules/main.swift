// Rule-set scale driver (issue 33): per-request CPU of rule matching at 100 / 1,000 / 10,000 rules of the
// issue's shape, against an exact replay hit, plus the time and resident memory loading the rules takes.
// Compiled together with Sources/Tonearm by scripts/bench-rules.sh (one optimised module, no SwiftPM).
#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock.
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Process CPU time (user + system) in nanoseconds.
func cpu() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Resident set size in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0, resident = 0
    withUnsafeMutablePointer(to: &size) { sizePointer in
        withUnsafeMutablePointer(to: &resident) { residentPointer in
            _ = withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
        }
    }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The issue's shape: one literal prefix, differing after it.
func issueRule(_ number: Int) -> Rule {
    Rule(name: "res\(number)", method: "GET", pattern: "^https://api\\.example\\.com/v1/res\(number)/[0-9]+/items$",
         response: Response(status: 200, body: "{\"rule\":\(number)}"))
}

/// Ids in the middle: every rule shares the long prefix; the part that tells them apart comes after a class.
func middleRule(_ number: Int) -> Rule {
    Rule(name: "mid\(number)", method: "GET", pattern: "^https://api\\.example\\.com/v1/users/[0-9]+/res\(number)$",
         response: Response(status: 200, body: "{\"rule\":\(number)}"))
}

func requests(count: Int, shape: String) -> [Request] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<4_096).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let number = Int((state >> 33) % UInt64(count))
        let id = Int((state >> 13) % 100_000)
        switch shape {
        case "middle": return Request(method: "GET", url: "https://api.example.com/v1/users/\(id)/res\(number)")
        default: return Request(method: "GET", url: "https://api.example.com/v1/res\(number)/\(id)/items")
        }
    }
}

/// CPU nanoseconds per call of `body` over `requests`, best of `rounds`.
func perRequest(_ requests: [Request], rounds: Int = 5, _ body: (Request) -> Bool) -> Double {
    var best = Double.infinity
    var misses = 0
    for _ in 0..<rounds {
        let start = cpu()
        var passes = 0
        while cpu() - start < 200_000_000 || passes == 0 {
            for request in requests where !body(request) { misses += 1 }
            passes += 1
        }
        best = min(best, Double(cpu() - start) / Double(passes * requests.count))
    }
    if misses > 0 { print("  (\(misses) misses!)") }
    return best
}

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = CommandLine.arguments.dropFirst()
let shapes = arguments.isEmpty ? ["issue", "middle"] : Array(arguments)
let exactTracks = (0..<1_000).map { Track(request: Request(method: "GET", url: "https://api.example.com/v1/t\($0)/items"), response: Response(status: 200, body: "{}")) }
let exactEngine = ReplayEngine(tracks: exactTracks)
let exactRequests = (0..<4_096).map { exactTracks[($0 &* 7_919) % exactTracks.count].request }
let exact = shapes.allSatisfy { $0.hasPrefix("load") || $0.hasPrefix("worst") || $0.hasPrefix("sample") || $0.hasPrefix("profile") } ? 1 : perRequest(exactRequests) { exactEngine.match($0).hit != nil }
print("exact replay hit (1,000 tracks): \(Int(exact)) ns/request")
/// `RuleWorkload`'s realistic sets (shared prefixes, ids in paths, path rules, unanchored rules, query
/// conditions, priorities) through the rule stage alone, against `NaiveRuleMatcher` (every rule in turn,
/// as WireMock and OHHTTPStubs match) on the same canonicalised stream; agreement is checked first.
func workloadRun(_ count: Int) {
    let workload = RuleWorkload(ruleCount: count)
    let engine: ReplayEngine
    do { engine = ReplayEngine(tracks: [], strategy: .rules(try RuleSet(workload.rules))) } catch { print("\(error)"); exit(1) }
    let stream = workload.stream(count: 2_000, missShare: 0.1).map { engine.incomingRequest(for: $0.request) }
    guard let naive = try? NaiveRuleMatcher(rules: workload.rules) else { print("naive does not compile"); exit(1) }
    func engineAnswer(_ request: IncomingRequest) -> Int? {
        guard case .hit(let hit) = engine.strategy.match(request), case .rule(_, let position) = hit.source else { return nil }
        return position
    }
    let checked = stream.prefix(count >= 10_000 ? 200 : 2_000)
    let disagreements = checked.filter { naive.firstMatch(for: $0) != engineAnswer($0) }.count
    let engineCost = perRequestIncoming(stream) { _ = engine.strategy.match($0) }
    let naiveCost = perRequestIncoming(Array(checked)) { _ = naive.firstMatch(for: $0) }
    print("workload \(count) rules: engine \(Int(engineCost)) ns/request, naive \(Int(naiveCost)) ns/request "
        + "(\(format1(naiveCost / engineCost))x), \(disagreements) disagreements in \(checked.count)")
}

/// CPU nanoseconds per call of `body` over `requests`, best of three rounds of at least 200 ms.
func perRequestIncoming(_ requests: [IncomingRequest], _ body: (IncomingRequest) -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        let start = cpu()
        var passes = 0
        while cpu() - start < 200_000_000 || passes == 0 {
            for request in requests { body(request) }
            passes += 1
        }
        best = min(best, Double(cpu() - start) / Double(passes * requests.count))
    }
    return best
}

for argument in shapes {
    if argument.hasPrefix("profile=") {
        profileRun(String(argument.dropFirst("profile=".count)))
        continue
    }
    if argument.hasPrefix("sample") {
        sampleRun(argument.split(separator: "@").dropFirst().first.flatMap { Int($0) } ?? 3_000)
        continue
    }
    if argument.hasPrefix("worst") {
        worstRun(argument.split(separator: "@").dropFirst().first.flatMap { Int($0) } ?? 5)
        continue
    }
    // `issue` runs 100, 1,000 and 10,000 rules; `issue@500` only 500.
    let parts = argument.split(separator: "@")
    let shape = String(parts[0])
    let counts = parts.count > 1 ? parts[1].split(separator: ",").compactMap { Int($0) } : [100, 1_000, 10_000]
    for count in counts {
        if shape == "workload" {
            workloadRun(count)
            continue
        }
        let rules = (0..<count).map(shape == "middle" ? middleRule : issueRule)
        let engine: ReplayEngine
        let residentBefore = residentBytes()
        let loadStart = now()
        do { engine = try ReplayEngine(rules: rules) } catch { print("rules do not compile: \(error)"); exit(1) }
        let loadNanoseconds = now() - loadStart
        let residentAfter = residentBytes()
        if shape == "live" {
            // Rules added and removed one at a time on a loaded engine: each add compiles one rule and
            // builds the blocks it completes.
            let residentBeforeAdds = residentBytes()
            var slowest: UInt64 = 0, total: UInt64 = 0
            var ids: [ReplayEngine.EntryID] = []
            for number in count..<(count + 4_096) {
                let start = now()
                guard let id = try? engine.add(issueRule(number)) else { exit(1) }
                let spent = now() - start
                total += spent
                slowest = max(slowest, spent)
                ids.append(id)
            }
            let residentAfterAdds = residentBytes()
            let removeStart = now()
            for id in ids.prefix(1_000) { _ = engine.remove(id) }
            let removeNanoseconds = (now() - removeStart) / 1_000
            let cost = perRequest(requests(count: count, shape: "issue")) { engine.match($0).hit != nil }
            print("live \(count) rules + 4,096 added one at a time: add mean \(total / 4_096 / 1_000) µs, slowest "
                + "\(slowest / 1_000_000) ms, +\((residentAfterAdds - residentBeforeAdds) / 1_048_576) MB resident; remove \(removeNanoseconds) ns each; then \(Int(cost)) ns/request")
            continue
        }
        if shape == "load" {
            print("load \(count) rules: \(loadNanoseconds / 1_000_000) ms, +\((residentAfter - residentBefore) / 1_048_576) MB resident")
            continue
        }
        let requests = requests(count: count, shape: shape)
        let cost = perRequest(requests) { engine.match($0).hit != nil }
        let line = "\(shape) \(count) rules: \(Int(cost)) ns/request (\(String(format1(cost / exact)))x exact), "
            + "load \(loadNanoseconds / 1_000_000) ms, +\((residentAfter - residentBefore) / 1_048_576) MB resident"
        print(line)
        withExtendedLifetime(engine) {}
    }
}

func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

// MARK: Worst cases (issue 18's table, issue 33's bit-parallel steps)

/// `a` followed by 11 random `a`/`b` and a `c`, repeated: no `a` is followed by 12 of them, so
/// `(a|b)*a(a|b){12}` never matches (the Benchmarks package's `WorstCasePatterns.blocksOfTwelve`).
func blocksOfTwelve(_ count: Int) -> String {
    let random = Array(AdversarialText.ab(count + 13, seed: 0x9E37_79B9_7F4A_7C15).unicodeScalars)
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

/// The Benchmarks package's `Pattern worst 80 KB …` cases (docs/benchmarks.md, "Worst cases"): CPU time
/// of one match of each pattern on its 80 KB path, through the pattern alone and through
/// `ReplayEngine.match` (which adds canonicalising the URL), `runs` times each, min / median / max; plus
/// the load (compile) time of each pattern.
func worstRun(_ runs: Int) {
    let length = 80 * 1024
    let randomAB = AdversarialText.ab(length, seed: 0x9E37_79B9_7F4A_7C15)
    var nineteen = Array(String(repeating: "b", count: length).unicodeScalars)
    for index in stride(from: 100, to: 100 + 19 * 4_000, by: 4_000) { nineteen[index] = "a" }
    var nineteenView = String.UnicodeScalarView()
    nineteenView.append(contentsOf: nineteen)
    let widest = "(?:a?){500}a.{990}x"
    let cases: [(name: String, pattern: String, path: String)] = [
        ("(a|b)*a(a|b){12} on a+11 random ab+c", "(a|b)*a(a|b){12}", "/" + blocksOfTwelve(length)),
        ("(.*a){20} on 19 a", "(.*a){20}", "/" + String(nineteenView)),
        ("^/(a|b|c|d|e)*x(.{1,40})*y$ on random ab", "^/(a|b|c|d|e)*x(.{1,40})*y$", "/abcdex" + randomAB),
        ("a.{1000}.{990}x on all a", "a.{1000}.{990}x", "/x" + String(repeating: "a", count: length)),
        ("a.{1000}.{990}x on random ab", "a.{1000}.{990}x", "/x" + randomAB),
        ("(?:a?){500}a.{990}x on all a", widest, "/x" + String(repeating: "a", count: length)),
        ("(?:a?){500}a.{990}x on random ab", widest, "/x" + randomAB),
        ("(?:a?){400}a.{990}x on all a", "(?:a?){400}a.{990}x", "/x" + String(repeating: "a", count: length)),
    ]
    func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = Int((Double(nanoseconds) / 10_000).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
    func summary(_ samples: [UInt64]) -> String {
        let sorted = samples.sorted()
        return "min \(milliseconds(sorted[0])) / median \(milliseconds(sorted[sorted.count / 2])) / max \(milliseconds(sorted[sorted.count - 1])) ms"
    }
    for item in cases {
        let pattern: LinearPattern
        var refused = false
        do { pattern = try LinearPattern(item.pattern) } catch {
            // Refused by the step-cost limit: what it would cost, measured without the limit.
            print("\(item.pattern): refused: \(error)")
            guard let unlimited = try? LinearPattern(item.pattern, separatingPrefix: true, limitingStepCost: false) else { exit(1) }
            pattern = unlimited
            refused = true
        }
        var alone: [UInt64] = []
        var found = false
        for _ in 0..<runs {
            let start = cpu()
            found = pattern.matches(item.path) || found
            alone.append(cpu() - start)
        }
        if refused {
            print("\(item.name): pattern \(summary(alone)) (without the limit); refused at load\(found ? " (MATCHED: wrong)" : "")")
            continue
        }
        let engine: ReplayEngine
        do {
            engine = ReplayEngine(tracks: [], strategy: .rules(try RuleSet([
                Rule(name: item.name, pattern: item.pattern, target: .path, response: Response())])))
        } catch { print("\(error)"); exit(1) }
        let request = Request(url: "http://h.example" + item.path)
        var throughEngine: [UInt64] = []
        for _ in 0..<runs {
            let start = cpu()
            found = (engine.match(request).hit != nil) || found
            throughEngine.append(cpu() - start)
        }
        print("\(item.name): pattern \(summary(alone)); ReplayEngine.match \(summary(throughEngine))\(found ? " (MATCHED: wrong)" : "")")
    }
    for pattern in ["^/.{1000}x", "(a|b)*a(a|b){12}", "a.{1000}.{990}x", widest, "(?:a?){400}a.{990}x"] {
        var samples: [UInt64] = []
        for _ in 0..<runs {
            let start = cpu()
            _ = try? RuleSet([Rule(name: "load", pattern: pattern, target: .path, response: Response())])
            samples.append(cpu() - start)
        }
        print("load \(pattern): \(summary(samples))")
    }
}
