import Foundation
import PropertyBased
import Testing
import TonearmTestSupport
import TonearmWorkloads
import Tonearm
@testable import TonearmCassettes

@Suite("Linting")
struct LintTests {
    @Test("tracks with the same key are shadowed under repeat, not under fifo")
    func shadowedTracks() {
        let request = Request(url: "https://h.example/a")
        let imported = CassetteImport(cassette: Cassette(tracks: [
            Track(request: request, response: Response(status: 200)),
            Track(request: request, response: Response(status: 500)),
            Track(request: Request(url: "https://h.example/b"), response: Response()),
        ]))
        let findings = CassetteLinter.lint(imported, strategy: .repeat)
        #expect(findings.map(\.kind) == [.shadowedTrack])
        #expect(findings.first?.subject.hasPrefix("track 1") == true)
        #expect(CassetteLinter.lint(imported, strategy: .fifo).isEmpty)
    }

    @Test("rules after a catch-all or an identical rule can never fire")
    func unreachableRules() {
        let response = Response()
        let imported = CassetteImport(cassette: Cassette(), rules: [
            Rule(name: "users", pattern: "^https://h\\.example/users$", response: response),
            Rule(name: "users again", pattern: "^https://h\\.example/users$", response: response),
            Rule(name: "anything", pattern: ".*", priority: 6, response: response),
            Rule(name: "after anything", pattern: "^https://h\\.example/x$", priority: 7, response: response),
            Rule(name: "posts only", method: "POST", pattern: "^https://h\\.example/users$", response: response),
        ])
        let subjects = CassetteLinter.lint(imported).filter { $0.kind == .unreachableRule }.map(\.subject)
        #expect(subjects == ["rule \"users again\"", "rule \"posts only\"", "rule \"after anything\""])
    }

    @Test("the rules found unreachable are those an earlier unconditional rule answers for, compared pairwise")
    func unreachableRulesAgreeWithPairwise() async {
        await propertyCheck(input: Gen.int(in: 0...10_000), Gen.int(in: 0...30)) { seed, count in
            var random = SeededRandom(seed: UInt64(seed))
            let patterns = ["^/a$", "^/b$", ".*", "", "^.+$"], methods: [String?] = [nil, "GET", "get", "POST"]
            let rules = (0..<count).map { index in
                Rule(
                    name: "r\(index)", method: methods.randomElement(using: &random) ?? nil,
                    pattern: patterns.randomElement(using: &random) ?? "", target: Bool.random(using: &random) ? .url : .path,
                    query: Int.random(in: 0..<5, using: &random) == 0 ? [QueryCondition("q", .equals("1"))] : [],
                    priority: Int.random(in: 4...6, using: &random),
                    response: Response(),
                    scenario: Int.random(in: 0..<6, using: &random) == 0 ? ScenarioStep("s", requiredState: "x") : nil)
            }
            let ordered = Rule.triedOrder(rules).map { rules[$0] }
            let catchAll: Set<String> = ["", ".*", "^.*", "^.*$", "^(?:.*)$", ".+", "^.+$"]
            func blocks(_ earlier: Rule, _ rule: Rule) -> Bool {
                guard earlier.query.isEmpty, earlier.headers.isEmpty, earlier.cookies.isEmpty, earlier.body.isEmpty,
                      earlier.scenario?.requiredState == nil else { return false }
                guard earlier.method == nil || earlier.method?.uppercased() == rule.method?.uppercased() else { return false }
                return catchAll.contains(earlier.pattern) || (earlier.pattern == rule.pattern && earlier.target == rule.target)
            }
            let expected = ordered.enumerated().compactMap { index, rule -> String? in
                guard let blocker = ordered[..<index].first(where: { blocks($0, rule) }) else { return nil }
                return "rule \"\(rule.name)\" after \(blocker.name)"
            }
            let found = CassetteLinter.unreachableRules(rules).map { finding in
                "\(finding.subject) after \(finding.message.split(separator: "\"")[1])"
            }
            #expect(found == expected, "seed \(seed)")
        }
    }

    @Test("scenario stubs for one request are not shadowed tracks, and a rule waiting for a state blocks no later rule")
    func scenarioStubs() throws {
        let request = Request(url: "https://h.example/cart")
        let imported = CassetteImport(cassette: Cassette(tracks: [
            Track(request: request, response: Response(status: 200), scenario: ScenarioStep("c", requiredState: "Started")),
            Track(request: request, response: Response(status: 201), scenario: ScenarioStep("c", requiredState: "Paid")),
        ]), rules: [
            Rule(name: "any while open", pattern: ".*", response: Response(), scenario: ScenarioStep("o", requiredState: "Open")),
            Rule(name: "users", pattern: "^https://h\\.example/users$", response: Response(status: 200)),
        ])
        #expect(CassetteLinter.lint(imported, strategy: .repeat).isEmpty)
        let engine = try imported.makeEngine()
        #expect(engine.match(Request(url: "https://h.example/users")).hit?.track.response?.status == 200)
    }

    @Test("a catch-all with a query condition shadows nothing: the engine answers the later rule")
    func conditionalCatchAllIsNotACatchAll() throws {
        let imported = CassetteImport(cassette: Cassette(), rules: [
            Rule(name: "page two", pattern: ".*", query: [QueryCondition("page", .equals("2"))], response: Response(status: 202)),
            Rule(name: "users", pattern: "^https://h\\.example/users$", response: Response(status: 200)),
        ])
        #expect(CassetteLinter.lint(imported).filter { $0.kind == .unreachableRule }.isEmpty)
        let engine = try imported.makeEngine()
        #expect(engine.match(Request(url: "https://h.example/users")).hit?.track.response?.status == 200)
        #expect(engine.match(Request(url: "https://h.example/users?page=2")).hit?.track.response?.status == 202)
    }

    @Test("unredacted credentials are reported; placeholders are not")
    func secrets() {
        let imported = CassetteImport(cassette: Cassette(tracks: [
            Track(request: Request(method: "POST", url: "https://h.example/login?api_key=abc&page=2",
                                   headers: [HeaderField("Authorization", "Bearer real"), HeaderField("Content-Type", "application/json")],
                                   body: #"{"user":"u","password":"hunter2"}"#),
                  response: Response(headers: [HeaderField("Set-Cookie", "<redacted>")])),
        ]))
        let messages = CassetteLinter.lint(imported).map(\.message)
        #expect(messages == ["request header Authorization is not redacted", "query parameter api_key is not redacted", "JSON body field /password is not redacted"])
    }

    @Test("the Contentful cassette's demo token is reported", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func conformanceSecret() throws {
        let imported = try VCRFormat.decode(Conformance.bytes("vcr/contentful-query_array_1.yml"))
        #expect(CassetteLinter.lint(imported).contains { $0.kind == .unredactedSecret && $0.message.contains("Authorization") })
        let openai = try VCRFormat.decode(Conformance.bytes("vcr/ruby-openai-images_variations_image_png.yml"))
        #expect(!CassetteLinter.lint(openai).contains { $0.message.contains("request header Authorization") })
    }
}
