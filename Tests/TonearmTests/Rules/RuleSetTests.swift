import PropertyBased
import Testing
@testable import Tonearm

@Suite("Regex rules")
struct RuleSetTests {
    func engine(_ rules: [Rule]) throws -> ReplayEngine {
        ReplayEngine(tracks: [], strategy: .rules(try RuleSet(rules)))
    }

    @Test("an invalid pattern fails at load time, naming the rule and its position")
    func invalidPatternNamesRule() {
        let rules = [
            Rule(name: "fine", pattern: "^/ok", response: Response()),
            Rule(name: "broken", pattern: "^/users/(\\d+", response: Response()),
        ]
        #expect {
            try RuleSet(rules)
        } throws: { error in
            guard let error = error as? RuleError else { return false }
            return error.ruleIndex == 1 && error.ruleName == "broken" && error.description.contains("broken")
        }
    }

    @Test("an invalid header condition pattern also fails at load time")
    func invalidConditionPattern() {
        let rule = Rule(name: "h", pattern: ".*", headers: [HeaderCondition("Accept", .matches("[a-"))], response: Response())
        #expect(throws: RuleError.self) { try RuleSet([rule]) }
    }

    @Test("first match in declared order")
    func declaredOrder() throws {
        let engine = try engine([
            Rule(name: "specific", pattern: "^https://api\\.example\\.com/users/42$", response: Response(status: 1)),
            Rule(name: "general", pattern: "^https://api\\.example\\.com/users/\\d+$", response: Response(status: 2)),
        ])
        #expect(Fixtures.status(engine.match(Fixtures.get("https://api.example.com/users/42"))) == 1)
        #expect(Fixtures.status(engine.match(Fixtures.get("https://api.example.com/users/7"))) == 2)
    }

    @Test("an explicit priority overrides declared order (lower first, default 5)")
    func priorityOverridesOrder() throws {
        let engine = try engine([
            Rule(name: "declared first", pattern: "/users", response: Response(status: 1)),
            Rule(name: "priority 1", pattern: "/users", priority: 1, response: Response(status: 2)),
            Rule(name: "priority 9", pattern: "/users", priority: 9, response: Response(status: 3)),
        ])
        let hit = try #require(engine.match(Fixtures.get("https://x.example/users")).hit)
        #expect(hit.source == .rule(name: "priority 1", position: 1))
    }

    @Test("method, header and JSON body conditions must all hold")
    func conditions() throws {
        let engine = try engine([
            Rule(
                name: "admin search", method: "post", pattern: "^https://api\\.example\\.com/search$",
                headers: [HeaderCondition("X-Role", .equals("admin"))],
                body: [BodyCondition(try JSONPointer("/filter/kind"), .equals("user")), BodyCondition(try JSONPointer("/debug"), .absent)],
                response: Response(status: 200)),
        ])
        var request = Fixtures.postJSON("https://api.example.com/search", #"{"filter":{"kind":"user"}}"#)
        request.headers.append(HeaderField("x-role", " admin "))
        #expect(Fixtures.status(engine.match(request)) == 200)
        var get = request
        get.method = "GET"
        #expect(engine.match(get).hit == nil, "method must match")
        var noRole = request
        noRole.headers.removeAll { $0.name == "x-role" }
        #expect(engine.match(noRole).hit == nil, "header must match")
        let otherKind = Fixtures.postJSON("https://api.example.com/search", #"{"filter":{"kind":"team"}}"#)
        #expect(engine.match(otherKind).hit == nil, "body must match")
        var debug = Fixtures.postJSON("https://api.example.com/search", #"{"filter":{"kind":"user"},"debug":true}"#)
        debug.headers.append(HeaderField("X-Role", "admin"))
        #expect(engine.match(debug).hit == nil, "absent condition must hold")
    }

    @Test("query conditions compare decoded values in any order; absent and repeated names work")
    func queryConditions() throws {
        let engine = try engine([
            Rule(name: "search", pattern: "^/search$", target: .path,
                 query: [QueryCondition("q", .equals("hello world")), QueryCondition("tag", .contains("ar")),
                         QueryCondition("debug", .absent), QueryCondition("page", .matches("^[0-9]+$"))],
                 response: Response(status: 200)),
        ])
        let hit = "https://h.example/search?page=3&tag=x&tag=guitar&q=hello+world"
        #expect(Fixtures.status(engine.match(Fixtures.get(hit))) == 200)
        #expect(Fixtures.status(engine.match(Fixtures.get("https://h.example/search?q=hello%20world&tag=bar&page=12"))) == 200)
        #expect(engine.match(Fixtures.get(hit + "&debug=1")).hit == nil, "absent must hold")
        #expect(engine.match(Fixtures.get("https://h.example/search?q=hello&tag=bar&page=1")).hit == nil, "equals is exact")
        #expect(engine.match(Fixtures.get("https://h.example/search?q=hello+world&tag=bar&page=one")).hit == nil, "matches")
        #expect(engine.match(Fixtures.get("https://h.example/search?q=hello+world&page=1")).hit == nil, "tag missing")
    }

    @Test("path rules match the normalised path; URL rules see the canonical sorted query")
    func targets() throws {
        let engine = try engine([
            Rule(name: "path", pattern: "^/v1/items/\\d+$", target: .path, response: Response(status: 1)),
            Rule(name: "query", pattern: "\\?a=1&b=2$", response: Response(status: 2)),
        ])
        #expect(Fixtures.status(engine.match(Fixtures.get("http://any.host:8080/v1/items/9?x=1"))) == 1)
        #expect(Fixtures.status(engine.match(Fixtures.get("https://h.example/other?b=2&a=1"))) == 2)
    }

    @Test("a rule's hit carries its response, delay and a transport error when it simulates one")
    func ruleOutcome() throws {
        let engine = try engine([
            Rule(name: "slow", pattern: "/slow", outcome: .transportError(.timedOut), delay: .milliseconds(250)),
        ])
        let hit = try #require(engine.match(Fixtures.get("https://h.example/slow")).hit)
        #expect(hit.track.outcome == .transportError(.timedOut))
        #expect(hit.track.delay == .milliseconds(250))
        #expect(hit.track.name == "slow")
    }

    static func prefix(_ pattern: String) throws -> String { LiteralPrefix.of(try PatternParser.parse(pattern)) }
    static func required(_ pattern: String) throws -> String { RequiredLiteral.of(try PatternParser.parse(pattern)) }

    @Test("literal prefixes stop at the first regex operator and drop a quantified character")
    func literalPrefixes() throws {
        #expect(try Self.prefix("^https://api\\.example\\.com/users/\\d+") == "https://api.example.com/users/")
        #expect(try Self.prefix("^/users/(\\d+)") == "/users/")
        #expect(try Self.prefix("^/items?") == "/item")
        #expect(try Self.prefix("/users") == "", "unanchored patterns have no prefix")
        #expect(try Self.prefix("^/a|^/b") == "", "alternation has no single prefix")
        #expect(try Self.prefix("^\\d+") == "")
        #expect(try Self.prefix("^(?i)/Users") == "/", "letters under (?i) are not literal")
        #expect(try Self.prefix("^(?:/v1)/users") == "/v1/users", "a plain group is part of the sequence")
    }

    @Test("required literals: the longest literal run outside repeated, optional or alternated groups")
    func requiredLiterals() throws {
        #expect(try Self.required("/name/export\\.csv$") == "/name/export.csv")
        #expect(try Self.required("^/v1/(users|teams)/\\d+/avatar\\.png$") == "/avatar.png")
        #expect(try Self.required("(/api)?/items") == "/items", "text inside an optional group is not required")
        #expect(try Self.required("/items?") == "/item", "a quantified character is not required")
        #expect(try Self.required("[a-z]+/orders") == "/orders")
        #expect(try Self.required("/a|/b") == "")
        #expect(try Self.required("(?i)/USERS") == "/", "letters under (?i) match either case, so they are not literal")
        #expect(try Self.required("(?:/v1)?/users") == "/users")
        #expect(try Self.required("(?x) /export \\. csv") == "/export.csv", "(?x) spaces are not part of the literal")
    }

    @Test("prefiltered lookup gives exactly the rule that trying every rule in order gives")
    func prefilterAgreesWithNaive() async throws {
        let hosts = ["https://a.example", "https://b.example", "http://c.example:8080"]
        let paths = ["/users/1", "/users/22", "/orders/3", "/items", "/users", "/"]
        let patterns = hosts.flatMap { host in
            ["^" + host.replacing(".", with: "\\.") + "/users/\\d+$", "^" + host.replacing(".", with: "\\.") + "/orders"]
        } + ["^/users/", "^/items$", "users/2", "^/orders/\\d", ".*/items", "^https?://b\\.example/",
             "(/api)?/users/\\d+$", "/users/(\\d+)/?$", "(?i)/USERS", "[a-z]+/orders/\\d", "/user?s?/2+$",
             "^/items$|/orders/3", "e\\.example/users"]
        let targets: [Rule.Target] = [.url, .path]
        let methods: [String?] = [nil, "GET", "POST"]
        let ruleGen = zip(
            Gen.int(in: 0...(patterns.count - 1)), Gen.int(in: 0...1), Gen.int(in: 0...2), Gen.int(in: 3...7))
        let requestGen = zip(Gen.int(in: 0...(hosts.count - 1)), Gen.int(in: 0...(paths.count - 1)), Gen.bool)
        await propertyCheck(count: 60, input: ruleGen.array(of: 1...25), requestGen.array(of: 20)) { ruleSpecs, requestSpecs in
            let rules = ruleSpecs.enumerated().map { offset, spec in
                Rule(name: "r\(offset)", method: methods[spec.2], pattern: patterns[spec.0], target: targets[spec.1],
                     priority: spec.3, response: Response(status: offset))
            }
            let requests = requestSpecs.map { (hosts[$0.0], paths[$0.1], $0.2 ? "GET" : "POST") }
            guard let set = try? RuleSet(rules) else { Issue.record("valid patterns must compile"); return }
            let canonicalizer = RequestCanonicalizer()
            for (host, path, method) in requests {
                let request = Request(method: method, url: host + path)
                let canonical = canonicalizer.canonicalize(request)
                let incoming = IncomingRequest(request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes))
                let fast = set.firstMatch(for: incoming).rule?.declaredIndex
                // Naive: every rule in priority order, method and a Swift Regex search; none of the
                // prefix, required-literal or whole-match shortcuts the rule set takes.
                let naive = set.compiled.first { rule in
                    let target = rule.rule.target == .path ? canonical.url.path : Rule.Target.url.text(of: canonical.url)
                    let regex = try? Regex(rule.rule.pattern)
                    return (rule.uppercasedMethod.map { $0 == method } ?? true) && regex.map { target.contains($0) } == true
                }?.declaredIndex
                #expect(fast == naive, "\(method) \(host + path)")
            }
        }
    }
}
