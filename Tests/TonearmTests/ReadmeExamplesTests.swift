import Testing
import Tonearm

/// The core's examples (Tonearm.docc: the landing page and "Matching and keys"), verbatim, kept compiling
/// and true: DocumentationExampleTests checks that each block is here.
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
        let tracks = [
            Track(
                request: Request(method: "GET", url: "https://api.example.com/users/42?fields=name,email"),
                response: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                   body: #"{"id":42,"name":"Ann"}"#)),
        ]
        let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)

        // Method and host case, the default port and percent-encoding do not matter:
        let live = Request(method: "get", url: "HTTPS://API.example.com:443/users/42?fields=name%2Cemail")
        switch engine.match(live) {
        case .hit(let hit):
            print(hit.track.response?.status ?? 0)   // 200
        case .miss(let report):
            print(report)                            // reason, canonical form, closest tracks and their differences
        }
        // Unique-play: the example's match played the track, so asking again finds it already played.
        let again = engine.match(live).missReport.map { "\($0)" } ?? "a hit"
        #expect(again.contains("exhausted"), "the example's request was a hit; asked again: \(again)")
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

    @Test("the live engine: the article's add and remove, as written")
    func liveEngineAsWritten() throws {
        let stubbed = try ReplayEngine(tracks: tracks, rules: [], strategy: .uniquePlay)
        let id = stubbed.add(Track(request: Request(url: "https://api.example.com/me"), response: Response(status: 200)))
        let maintenance = try stubbed.add(Rule(pattern: ".*", priority: 1, response: Response(status: 503)))
        stubbed.remove(maintenance)
        stubbed.remove(id)
        #expect(stubbed.match(Request(url: "https://api.example.com/me")).hit == nil, "both removed")
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
        _ = checkout.match(cart)                                                   // []
        _ = checkout.match(Request(method: "POST", url: "https://shop.example/pay"))  // 201: now "Paid"
        _ = checkout.match(cart)                                                   // [{"order":1}], as often as asked
        try checkout.setState(ofScenario: "checkout", to: "Started")               // or resetScenario(_:), resetScenarios()
        #expect(checkout.scenario(named: "checkout")?.state == "Started", "the example ends where it began")
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
