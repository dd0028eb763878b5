import Testing
@testable import Tonearm

@Suite("Miss reports: the closest rules")
struct RuleNearMissTests {
    private static let ok = Response(status: 200, body: "ok")

    private static func rule(
        _ name: String, method: String? = "GET", _ pattern: String, target: Rule.Target = .path,
        query: [QueryCondition] = [], headers: [HeaderCondition] = [], cookies: [CookieCondition] = [],
        body: [BodyCondition] = [], priority: Int? = nil, scenario: ScenarioStep? = nil
    ) -> Rule {
        Rule(
            name: name, method: method, pattern: pattern, target: target, query: query, headers: headers, cookies: cookies,
            body: body, priority: priority, response: ok, scenario: scenario)
    }

    @Test("a rule whose only unmet condition is a header comes before rules for another method or path")
    func rankedByUnmetConditions() throws {
        let engine = try ReplayEngine(rules: [
            Self.rule("orders", method: "POST", "^/orders/.*$"),
            Self.rule("items by id", "^/items/[0-9]+$", headers: [HeaderCondition("Accept", .equals("application/json"))]),
            Self.rule("search", "^/items/[0-9]+$", query: [QueryCondition("q", .matches("^[a-z]+$"))]),
        ])
        let request = Fixtures.get("https://api.example.com/items/12", headers: [HeaderField("Accept", "text/plain")])
        let report = try #require(engine.match(request).missReport)
        #expect(report.nearestRules.map(\.rule.name) == ["items by id", "search", "orders"])
        #expect(report.rulesCompared == 3)
        let closest = try #require(report.nearestRules.first)
        #expect(closest.position == 1)
        #expect(closest.differences == [
            .unmetCondition("header", name: "Accept", condition: #"equals "application/json""#, received: ["text/plain"]),
        ])
        #expect(report.nearestRules[1].differences == [
            .unmetCondition("query parameter", name: "q", condition: #"matches "^[a-z]+$""#, received: []),
        ])
        #expect(report.nearestRules[2].differences.map(\.conditionPart) == ["method", "path"])
        #expect(report.description.contains("closest rules (of 3 compared):"))
        #expect(report.description.contains(#"header "Accept": needs equals "application/json", received "text/plain""#))
        #expect(report.description.contains(#"query parameter "q": needs matches "^[a-z]+$", received nothing"#))
    }

    @Test("every unmet condition is listed, in the order the rule declares them, with what the request has")
    func everyUnmetCondition() throws {
        let engine = try ReplayEngine(rules: [
            Self.rule(
                "pay", method: "POST", "^/pay$",
                query: [QueryCondition("currency", .equals("EUR"))],
                headers: [HeaderCondition("X-Key", .present), HeaderCondition("Accept", .contains("json"))],
                cookies: [CookieCondition("session", .matches("^s-"))],
                body: [
                    BodyCondition(.jsonPath(try JSONPath("$.amount")), .present),
                    BodyCondition(.wholeBody, .contains("\"total\"")),
                ]),
        ])
        let request = Request(
            method: "PUT", url: "https://h.example/payment?currency=USD",
            headers: [HeaderField("Accept", "application/json"), HeaderField("Cookie", "session=x-1"), HeaderField("Content-Type", "application/json")],
            body: #"{"sum":3}"#)
        let near = try #require(engine.match(request).missReport?.nearestRules.first)
        #expect(near.differences == [
            .unmetCondition("method", condition: "POST", received: ["PUT"]),
            .unmetCondition("path", condition: #"matches "^/pay$""#, received: ["/payment"]),
            .unmetCondition("query parameter", name: "currency", condition: #"equals "EUR""#, received: ["USD"]),
            .unmetCondition("header", name: "X-Key", condition: "present", received: []),
            .unmetCondition("cookie", name: "session", condition: #"matches "^s-""#, received: ["x-1"]),
            .unmetCondition("body", name: "$.amount", condition: "present", received: []),
            .unmetCondition("body", condition: #"contains "\"total\"""#, received: [#"{"sum":3}"#]),
        ])
        #expect(near.description.contains("7 unmet conditions"))
    }

    @Test("unmet XML conditions are listed like other body conditions: the expected XML or the XPath, and the body")
    func unmetXML() throws {
        let engine = try ReplayEngine(rules: [
            Self.rule(
                "soap", method: "POST", "^/soap$",
                body: [
                    BodyCondition(.wholeBody, .equalsXML(try XMLReader().read("<a><b>1</b></a>"))),
                    BodyCondition(.wholeBody, .matchesXPath(try XPathExpression("//b/text()"), .equals("2"))),
                ]),
        ])
        let request = Request(method: "POST", url: "https://h.example/soap", body: "<a><b>3</b></a>")
        let near = try #require(engine.match(request).missReport?.nearestRules.first)
        #expect(near.differences == [
            .unmetCondition("body", condition: #"equalsXML "<a><b>1</b></a>""#, received: ["<a><b>3</b></a>"]),
            .unmetCondition("body", condition: #"matchesXPath "//b/text()" (equals "2")"#, received: ["<a><b>3</b></a>"]),
        ])
    }

    @Test("an unmet multipart condition is named with how many parts the request had")
    func unmetMultipart() throws {
        var upload = Self.rule("upload", method: "POST", "^/upload$")
        upload.multipart = [MultipartCondition(.all, headers: [HeaderCondition("Content-Disposition", .contains("name=\"file\""))])]
        let engine = try ReplayEngine(rules: [upload])
        let request = Request(method: "POST", url: "https://h.example/upload", headers: [HeaderField("Content-Type", "text/plain")], body: "x")
        let near = try #require(engine.match(request).missReport?.nearestRules.first)
        #expect(near.differences == [
            .unmetCondition("multipart", name: "condition 1", condition: "every part passing 1 header and 0 body conditions", received: ["0 parts"]),
        ])
    }

    @Test("a rule filed under another first path segment is still compared: a mistyped segment is the miss to explain")
    func otherBucketsAreCompared() throws {
        let engine = try ReplayEngine(rules: [
            Self.rule("items", "^/items/[0-9]+$"),
            Self.rule("users", "^/users/[0-9]+$"),
        ])
        let report = try #require(engine.match(Fixtures.get("https://h.example/itemz/3")).missReport)
        #expect(report.rulesCompared == 2)
        #expect(Set(report.nearestRules.map(\.rule.name)) == ["items", "users"])
        #expect(report.nearestRules.allSatisfy { $0.differences.map(\.conditionPart) == ["path"] })
    }

    @Test("a rule whose conditions hold but whose scenario is in another state comes first, naming the states")
    func scenarioStateExplains() throws {
        let engine = try ReplayEngine(rules: [
            Self.rule("other", "^/cart/[0-9]+$"),
            Self.rule("checkout", "^/cart$", scenario: ScenarioStep("shop", requiredState: "Filled")),
        ])
        let report = try #require(engine.match(Fixtures.get("https://h.example/cart")).missReport)
        let first = try #require(report.nearestRules.first)
        #expect(first.rule.name == "checkout")
        #expect(first.differences == [.scenarioState(scenario: "shop", current: ScenarioStep.startedState, required: "Filled")])
    }

    @Test("a miss compares a bounded number of rules, however many the set holds")
    func boundedCandidates() throws {
        let rules = (0..<300).map { Self.rule("r\($0)", "^/items/\($0)/[a-z]+$") }
        let engine = try ReplayEngine(rules: rules)
        let report = try #require(engine.match(Fixtures.get("https://h.example/items/7/9")).missReport)
        #expect(report.rulesCompared == RuleNearMissFinder.candidateLimit)
        #expect(report.nearestRules.count == NearMissFinder.reportedCount)
        // Equally close rules come by priority, then added order.
        #expect(report.nearestRules.map(\.rule.name) == ["r0", "r1", "r2"])
    }

    @Test("an engine without rules reports none, and peeking reports the same rules as matching")
    func withoutRulesAndPeek() throws {
        let tracksOnly = ReplayEngine(tracks: [Fixtures.track(Fixtures.get("https://h.example/a"), status: 200)])
        let report = try #require(tracksOnly.match(Fixtures.get("https://h.example/b")).missReport)
        #expect(report.nearestRules.isEmpty)
        #expect(report.rulesCompared == 0)

        let engine = try ReplayEngine(rules: [Self.rule("a", "^/a$", headers: [HeaderCondition("X", .equals("1"))])])
        guard case .miss(let peeked) = engine.peek(Fixtures.get("https://h.example/a")) else {
            Issue.record("expected a miss")
            return
        }
        let matched = try #require(engine.match(Fixtures.get("https://h.example/a")).missReport)
        #expect(peeked.nearestRules.map(\.differences) == matched.nearestRules.map(\.differences))
        #expect(peeked.nearestRules.first?.differences == [.unmetCondition("header", name: "X", condition: #"equals "1""#, received: [])])
    }
}
