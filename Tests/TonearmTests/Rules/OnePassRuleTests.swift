import PropertyBased
import Testing
@testable import Tonearm

/// The one-pass rule selector (``RuleShard`` blocks over ``LiveRules``) answers exactly as trying every
/// live rule in rank order does: same rule, same scenario candidates, same priority cut-off, whatever the
/// block sizes and however the rules were added and removed.
@Suite("One-pass rule selection")
struct OnePassRuleTests {
    typealias SplitMix = PatternDifferentialTests.SplitMix

    static let hosts = ["https://a.example", "http://b.example:8080", "https://api.example.com"]
    static let segments = ["users", "orders", "items", "a", "ab", "res1", "res12", "v1"]

    /// A URL-shaped pattern (shared prefixes, ids, alternations, case-insensitive parts, unanchored
    /// searches), or now and then one of the differential suite's free-form patterns.
    static func pattern(_ random: inout SplitMix, target: Rule.Target) -> String {
        func segment() -> String { segments.randomElement(using: &random) ?? "a" }
        let host = (hosts.randomElement(using: &random) ?? "").replacing(".", with: "\\.")
        let start = target == .url ? "^" + host : "^"
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return start + "/" + segment() + "/[0-9]+/" + segment() + "$"
        case 1: return start + "/" + segment() + "/\\d+" + ["", "$", "(\\?.*)?$"].randomElement(using: &random)!
        case 2: return "/(" + segment() + "|" + segment() + ")/[0-9]+"
        case 3: return "(?i)/" + segment().uppercased()
        case 4: return segment() + ".*" + segment()
        case 5: return start + "/" + segment() + "/" + segment()
        case 6: return "^/" + segment() + "/[a-z0-9]+/" + segment() + "$"
        case 7: return [".*", "", "[a-z]+/[0-9]", "^/$", "\\d{2}"].randomElement(using: &random)!
        default: return PatternDifferentialTests.pattern(&random)
        }
    }

    static func rule(_ random: inout SplitMix, number: Int) -> Rule {
        let target: Rule.Target = Bool.random(using: &random) ? .url : .path
        let methods: [String?] = [nil, nil, "GET", "POST"]
        let scenario = Int.random(in: 0..<6, using: &random) == 0
            ? ScenarioStep("s", requiredState: ["Started", "other"].randomElement(using: &random)) : nil
        return Rule(
            name: "r\(number)", method: methods.randomElement(using: &random)!, pattern: pattern(&random, target: target),
            target: target, priority: Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...7, using: &random) : nil,
            response: Response(status: 200 + number), scenario: scenario)
    }

    static func request(_ random: inout SplitMix) -> IncomingRequest {
        func segment() -> String { segments.randomElement(using: &random) ?? "a" }
        var path = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            path += "/" + (Int.random(in: 0..<3, using: &random) == 0 ? String(Int.random(in: 0...120, using: &random)) : segment())
        }
        if Int.random(in: 0..<5, using: &random) == 0 { path += "?q=" + segment() }
        if Int.random(in: 0..<8, using: &random) == 0 { path += "/" + PatternDifferentialTests.text(&random) }
        let url = (hosts.randomElement(using: &random) ?? "") + (path.isEmpty ? "/" : path)
        let request = Request(method: Bool.random(using: &random) ? "GET" : "POST", url: url)
        let canonical = RequestCanonicalizer().canonicalize(request)
        return IncomingRequest(request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes))
    }

    /// Every live rule in rank order, each checked in turn (method, then the whole pattern from the
    /// start of its target, none of the literal shortcuts; the generated rules have no other
    /// conditions): the behaviour the selector must keep.
    static func ruleByRule(_ store: LiveRules, _ request: IncomingRequest, priorityBelow bound: Int? = nil) -> [Int] {
        var answer: [Int] = []
        for rule in store.compiledInRankOrder {
            if let bound, (rule.rule.priority ?? Rule.defaultPriority) >= bound { break }
            let target = rule.rule.target.text(of: request.canonical.url)
            if let method = rule.uppercasedMethod, method != request.canonical.method { continue }
            guard rule.pattern.matches(target) else { continue }
            answer.append(rule.declaredIndex)
            if rule.rule.scenario == nil { break }
        }
        return answer
    }

    static func expectAgreement(_ store: LiveRules, _ random: inout SplitMix, requests: Int, context: String) {
        for _ in 0..<requests {
            let request = request(&random)
            let url = request.request.url
            #expect(store.candidates(for: request).all.map(\.declaredIndex) == ruleByRule(store, request), "\(context) \(url)")
            let bound = Int.random(in: 1...8, using: &random)
            #expect(
                store.candidates(for: request, priorityBelow: bound).all.map(\.declaredIndex)
                    == ruleByRule(store, request, priorityBelow: bound), "\(context) \(url) below \(bound)")
        }
    }

    static let blockSizes: [[Int]] = [[1], [2, 4, 8], [4, 16], LiveRules.defaultShardSizes]

    @Test("random rule sets loaded at once: the same candidates as trying every rule in turn")
    func bulkLoadedAgree() async {
        await propertyCheck(count: 120, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let rules = (0..<Int.random(in: 0...40, using: &random)).compactMap { number -> Rule? in
                let rule = Self.rule(&random, number: number)
                return (try? LinearPattern(rule.pattern)) == nil ? nil : rule
            }
            for sizes in Self.blockSizes {
                let store = LiveRules(shardSizes: sizes)
                do throws(RuleError) { try store.add(contentsOf: rules) } catch { Issue.record("\(error)"); return }
                Self.expectAgreement(store, &random, requests: 12, context: "seed \(seed) blocks \(sizes)")
            }
        }
    }

    @Test("rules added one by one, in bulk after that, and removed: still the same candidates")
    func liveChangesAgree() async {
        await propertyCheck(count: 60, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let sizes = Self.blockSizes[Int.random(in: 0..<(Self.blockSizes.count - 1), using: &random)]
            let store = LiveRules(shardSizes: sizes)
            var number = 0
            for step in 0..<Int.random(in: 1...30, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    let batch = (0..<Int.random(in: 0...9, using: &random)).map { _ in
                        number += 1
                        return Self.rule(&random, number: number)
                    }.filter { (try? LinearPattern($0.pattern)) != nil }
                    do throws(RuleError) { try store.add(contentsOf: batch) } catch { Issue.record("\(error)"); return }
                case 1:
                    _ = store.remove(Int.random(in: 0...max(0, number), using: &random))
                default:
                    number += 1
                    let rule = Self.rule(&random, number: number)
                    guard (try? LinearPattern(rule.pattern)) != nil else { continue }
                    do throws(RuleError) { _ = try store.add(rule) } catch { Issue.record("\(error)"); return }
                }
                Self.expectAgreement(store, &random, requests: 4, context: "seed \(seed) blocks \(sizes) step \(step)")
            }
        }
    }

    @Test("a request lacking a rule's required text, where its pattern pins it, does not try the rule")
    func prefilterSkipsRules() throws {
        func firstMatch(_ set: RuleSet, _ url: String) -> (rule: CompiledRule?, tried: Int) {
            let request = Request(url: url)
            let canonical = RequestCanonicalizer().canonicalize(request)
            return set.firstMatch(for: IncomingRequest(request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes)))
        }
        let prefixed = try RuleSet((0..<100).map { number in
            Rule(name: "res\(number)", pattern: "^https://api\\.example\\.com/v1/res\(number)/[0-9]+/items$", response: Response())
        })
        let found = firstMatch(prefixed, "https://api.example.com/v1/res42/7/items")
        #expect(found.rule?.rule.name == "res42")
        #expect(found.tried == 1, "only the rule whose literal the URL contains is checked")
        // `/res4` occurs in `/res42`, but the pattern needs it at the end of the URL.
        let suffixed = try RuleSet((0..<100).map { number in
            Rule(name: "res\(number)", pattern: "^https://api\\.example\\.com/v1/users/[0-9]+/res\(number)$", response: Response())
        })
        let atEnd = firstMatch(suffixed, "https://api.example.com/v1/users/7/res42")
        #expect(atEnd.rule?.rule.name == "res42")
        #expect(atEnd.tried == 1)
    }

    @Test("literal search reports every occurrence of every literal, overlapping ones included")
    func literalSearchFindsAll() async {
        await propertyCheck(count: 300, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let alphabet: [UInt8] = Array("ab/1".utf8)
            func word(_ length: ClosedRange<Int>) -> [UInt8] {
                (0..<Int.random(in: length, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            }
            let literals = (0..<Int.random(in: 1...8, using: &random)).map { _ in word(1...4) }
            let text = word(0...24)
            let search = LiteralAutomaton(literals)
            var found: [[Int]] = []
            text.withUnsafeBufferPointer { bytes in search.forEachMatch(in: bytes) { found.append([$0, $1]) } }
            var expected: [[Int]] = []
            for end in 0...text.count {
                for (index, literal) in literals.enumerated() where literal.count <= end && Array(text[(end - literal.count)..<end]) == literal {
                    expected.append([index, end])
                }
            }
            #expect(found.sorted { $0.lexicographicallyPrecedes($1) } == expected.sorted { $0.lexicographicallyPrecedes($1) }, "\(literals) in \(text)")
        }
    }
}
