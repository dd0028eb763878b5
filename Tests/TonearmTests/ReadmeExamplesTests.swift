import Testing
import Tonearm

/// The code blocks of README.md, kept compiling and true. Change both together.
@Suite("README examples")
struct ReadmeExamplesTests {
    let tracks = [
        Track(
            request: Request(method: "GET", url: "https://api.example.com/users/42?fields=name,email"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                               body: #"{"id":42,"name":"Ann"}"#)),
    ]

    @Test("using the core: a differently written request hits")
    func usingTheCore() {
        let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
        let live = Request(method: "get", url: "HTTPS://API.example.com:443/users/42?fields=name%2Cemail")
        switch engine.match(live) {
        case .hit(let hit):
            #expect(hit.track.response?.status == 200)
        case .miss(let report):
            Issue.record("expected a hit: \(report)")
        }
    }

    @Test("choosing what makes the key")
    func configuration() throws {
        let configuration = MatchingConfiguration(
            attributes: [.method, .url, .query, .body, .header("Accept")],
            ignoredQueryParameters: ["timestamp", "_"],
            ignoredJSONFields: [try JSONPointer("/meta/requestId")])
        let strict = ReplayEngine(tracks: tracks, strategy: .repeat, configuration: configuration)
        let withoutAccept = Request(url: "https://api.example.com/users/42?fields=name,email&_=123")
        #expect(strict.match(withoutAccept).hit != nil, "the track has no Accept header either; _ is ignored")
        let withAccept = Request(url: "https://api.example.com/users/42?fields=name,email", headers: [HeaderField("Accept", "text/html")])
        #expect(strict.match(withAccept).hit == nil)
    }

    @Test("strategies: tracks first, then rules")
    func strategies() throws {
        let stubbed = try ReplayEngine(tracks: tracks, rules: [
            Rule(name: "any user", method: "GET", pattern: #"^https://api\.example\.com/users/\d+$"#,
                 response: Response(status: 200, body: #"{"id":0}"#)),
            Rule(name: "slow search", pattern: "/search", outcome: .transportError(.timedOut), delay: .seconds(2)),
        ], strategy: .uniquePlay)
        #expect(stubbed.match(Request(url: "https://api.example.com/users/7")).hit?.source == .rule(name: "any user", position: 0))
        #expect(stubbed.match(Request(url: "https://api.example.com/search?q=1")).hit?.track.outcome == .transportError(.timedOut))

        let id = stubbed.add(Track(request: Request(url: "https://api.example.com/me"), response: Response(status: 200)))
        let maintenance = try stubbed.add(Rule(pattern: ".*", priority: 1, response: Response(status: 503)))
        #expect(stubbed.match(Request(url: "https://api.example.com/users/7")).hit?.track.response?.status == 503)
        stubbed.remove(maintenance)
        #expect(stubbed.match(Request(url: "https://api.example.com/me")).hit?.track.response?.status == 200)
        stubbed.remove(id)
        #expect(stubbed.match(Request(url: "https://api.example.com/me")).hit == nil)
    }

    @Test("scenarios: the stub for the scenario's state answers and moves it on")
    func scenarios() throws {
        let cart = Request(url: "https://shop.example/cart")
        let checkout = ReplayEngine(tracks: [
            Track(request: cart, response: Response(status: 200, body: "[]"),
                  scenario: ScenarioStep("checkout", requiredState: ScenarioStep.startedState)),
            Track(request: Request(method: "POST", url: "https://shop.example/pay"), response: Response(status: 201),
                  scenario: ScenarioStep("checkout", requiredState: ScenarioStep.startedState, newState: "Paid")),
            Track(request: cart, response: Response(status: 200, body: #"[{"order":1}]"#),
                  scenario: ScenarioStep("checkout", requiredState: "Paid")),
        ])
        #expect(checkout.match(cart).hit?.track.response?.body == Array("[]".utf8))
        #expect(checkout.match(Request(method: "POST", url: "https://shop.example/pay")).hit?.track.response?.status == 201)
        #expect(checkout.scenario(named: "checkout")?.state == "Paid")
        #expect(checkout.match(cart).hit?.track.response?.body == Array(#"[{"order":1}]"#.utf8))
        #expect(checkout.match(cart).hit?.track.response?.body == Array(#"[{"order":1}]"#.utf8))
        try checkout.setState(ofScenario: "checkout", to: "Started")
        #expect(checkout.match(cart).hit?.track.response?.body == Array("[]".utf8))
        let pay = Request(method: "POST", url: "https://shop.example/pay")
        #expect(checkout.match(pay).hit != nil)
        let paid = try #require(checkout.match(pay).missReport)
        #expect(paid.nearest.first?.differences.map(\.description) == [#"scenario "checkout" is in state "Paid", this stub needs "Started""#])
    }
}
