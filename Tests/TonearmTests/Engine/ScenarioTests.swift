import PropertyBased
import Testing
@testable import Tonearm

/// Stateful scenarios (WireMock's `scenarioName`, `requiredScenarioState`, `newScenarioState`) on tracks
/// and rules.
@Suite("Scenarios")
struct ScenarioTests {
    static let cart = Fixtures.get("https://shop.example/cart")
    static let pay = Request(method: "POST", url: "https://shop.example/pay")

    /// The checkout walk as tracks: the cart is empty until paid for; paying moves Started → Paid; then
    /// the cart shows the order.
    static func checkoutTracks() -> [Track] {
        [
            Track(request: cart, response: Response(status: 200, body: "empty"), name: "empty cart",
                  scenario: ScenarioStep("checkout", requiredState: ScenarioStep.startedState)),
            Track(request: pay, response: Response(status: 201), name: "pay",
                  scenario: ScenarioStep("checkout", requiredState: ScenarioStep.startedState, newState: "Paid")),
            Track(request: cart, response: Response(status: 200, body: "paid"), name: "paid cart",
                  scenario: ScenarioStep("checkout", requiredState: "Paid")),
        ]
    }

    static func body(_ result: MatchResult) -> String? {
        result.hit.flatMap { $0.track.response.map { String(decoding: $0.body, as: UTF8.self) } }
    }

    @Test("the stub whose required state is the scenario's answers, and answering moves the scenario on",
          arguments: [Strategy.repeat, .fifo(), .uniquePlay, .strictOrder])
    func walk(strategy: Strategy) throws {
        let engine = ReplayEngine(tracks: Self.checkoutTracks(), strategy: strategy)
        #expect(Self.body(engine.match(Self.cart)) == "empty")
        #expect(Self.body(engine.match(Self.cart)) == "empty", "stubs answer any number of times")
        #expect(Fixtures.status(engine.match(Self.pay)) == 201)
        #expect(engine.scenario(named: "checkout")?.state == "Paid")
        #expect(Self.body(engine.match(Self.cart)) == "paid")
        #expect(Self.body(engine.match(Self.cart)) == "paid")
        let reason = try #require(engine.match(Self.pay).missReport?.reason)
        // Strict order adds its own reason (its sequence of plain tracks is finished); the others have none.
        #expect((reason.scenarioMismatches ?? reason.stages?.last?.scenarioMismatches) == [
            ScenarioMismatch(scenario: "checkout", currentState: "Paid", requiredState: "Started", stub: "track #1 \"pay\""),
        ])
    }

    @Test("a miss explains the state: reason and closest track say which state the stub needs")
    func missReport() throws {
        let engine = ReplayEngine(tracks: Self.checkoutTracks())
        _ = engine.match(Self.pay)
        let report = try #require(engine.match(Self.pay).missReport)
        #expect(report.reason.identifier == "scenario-state")
        #expect(report.reason.description
            == "scenario state: scenario \"checkout\" is in state \"Paid\", track #1 \"pay\" needs \"Started\"")
        let closest = try #require(report.nearest.first)
        #expect(closest.position == 1, "the request's own track, waiting for a state, comes first")
        #expect(closest.differences == [.scenarioState(scenario: "checkout", current: "Paid", required: "Started")])
        #expect(closest.differences.map(\.description)
            == ["scenario \"checkout\" is in state \"Paid\", this stub needs \"Started\""])
        #expect(report.description.contains("this stub needs \"Started\""))
    }

    @Test("a state-mismatched exact match ranks before an exhausted plain track of the same request")
    func nearMissRanking() throws {
        let plain = Fixtures.track(Self.pay, status: 200, name: "plain")
        let engine = ReplayEngine(tracks: [plain] + Self.checkoutTracks(), strategy: .uniquePlay)
        #expect(engine.match(Self.pay).hit?.trackPosition == 0, "plain tracks answer first")
        #expect(engine.match(Self.pay).hit?.trackPosition == 2, "then the scenario's stub")
        let report = try #require(engine.match(Self.pay).missReport)
        #expect(report.reason == .everyStageMissed([
            .exhausted(trackCount: 1),
            .scenarioStateMismatch([ScenarioMismatch(
                scenario: "checkout", currentState: "Paid", requiredState: "Started", stub: "track #2 \"pay\"")]),
        ]))
        #expect(report.nearest.map(\.position).prefix(2) == [2, 0])
    }

    @Test("rules: the first rule by priority whose scenario is in its state answers; others are passed over")
    func rules() throws {
        let step = { (required: String, next: String?) in ScenarioStep("login", requiredState: required, newState: next) }
        let engine = try ReplayEngine(rules: [
            Rule(name: "locked", method: "GET", pattern: "/me$", priority: 1, response: Response(status: 401),
                 scenario: step("Started", "Asked")),
            Rule(name: "challenge", method: "GET", pattern: "/me$", priority: 1, response: Response(status: 403),
                 scenario: step("Asked", "Open")),
            Rule(name: "fallback", method: "GET", pattern: "/me$", priority: 9, response: Response(status: 500)),
            Rule(name: "open", method: "GET", pattern: "/me$", priority: 2, response: Response(status: 200),
                 scenario: step("Open", nil)),
        ])
        let me = Fixtures.get("https://api.example.com/me")
        #expect([engine.match(me), engine.match(me), engine.match(me), engine.match(me)].map(Fixtures.status)
            == [401, 403, 200, 200])
        try engine.setState(ofScenario: "login", to: "Asked")
        #expect(Fixtures.status(engine.match(me)) == 403)
        #expect(engine.match(me).hit?.source == .rule(name: "open", position: 3))
    }

    @Test("a rule whose conditions hold but whose scenario waits misses with the state when nothing else answers")
    func ruleMiss() throws {
        let engine = try ReplayEngine(rules: [
            Rule(name: "second", pattern: "/step$", response: Response(status: 200),
                 scenario: ScenarioStep("flow", requiredState: "Second")),
        ])
        let reason = engine.match(Fixtures.get("https://api.example.com/step")).missReport?.reason
        #expect(reason == .everyStageMissed([.notRecorded, .scenarioStateMismatch([
            ScenarioMismatch(scenario: "flow", currentState: "Started", requiredState: "Second", stub: "rule \"second\""),
        ])]))
    }

    @Test("scenarios list their state, possible states and stubs; set, reset one and reset all")
    func adminOperations() throws {
        let engine = ReplayEngine(tracks: Self.checkoutTracks())
        let ruleID = try engine.add(Rule(
            name: "ship", method: "POST", pattern: "/ship$", response: Response(status: 202),
            scenario: ScenarioStep("checkout", requiredState: "Paid", newState: "Shipped")))
        try engine.add(Rule(
            pattern: "/wishlist$", response: Response(status: 200), scenario: ScenarioStep("wishlist", newState: "Seen")))
        let checkout = try #require(engine.scenario(named: "checkout"))
        #expect(checkout.state == "Started")
        #expect(checkout.possibleStates == ["Started", "Paid", "Shipped"])
        #expect(checkout.entries == [
            ReplayEngine.EntryID(kind: .track, number: 0), ReplayEngine.EntryID(kind: .track, number: 1),
            ReplayEngine.EntryID(kind: .track, number: 2), ruleID,
        ])
        #expect(engine.scenarios.map(\.name) == ["checkout", "wishlist"])

        _ = engine.match(Self.pay)
        _ = engine.match(Fixtures.get("https://shop.example/wishlist"))
        #expect(engine.scenarios.map(\.state) == ["Paid", "Seen"])
        try engine.resetScenario("checkout")
        #expect(engine.scenarios.map(\.state) == ["Started", "Seen"], "resetting one leaves the others")
        try engine.setState(ofScenario: "checkout", to: "Shipped")
        #expect(engine.scenarios.map(\.state) == ["Shipped", "Seen"])
        engine.resetScenarios()
        #expect(engine.scenarios.map(\.state) == ["Started", "Started"])

        #expect(throws: ScenarioError.impossibleState(
            scenario: "checkout", state: "Lost", possibleStates: ["Started", "Paid", "Shipped"])) {
            try engine.setState(ofScenario: "checkout", to: "Lost")
        }
        #expect(throws: ScenarioError.unknownScenario("nope")) { try engine.resetScenario("nope") }
        #expect(engine.remove(ruleID))
        #expect(engine.scenario(named: "checkout")?.possibleStates == ["Started", "Paid"], "removed stubs no longer count")
    }

    @Test("reset() puts scenarios back in Started with everything else")
    func engineReset() {
        let engine = ReplayEngine(tracks: Self.checkoutTracks(), strategy: .uniquePlay)
        _ = engine.match(Self.pay)
        engine.reset()
        #expect(Self.body(engine.match(Self.cart)) == "empty")
    }

    @Test("tracks with a scenario added while the engine runs take part at once")
    func liveAdd() {
        let engine = ReplayEngine(tracks: [Fixtures.track(Self.cart, status: 200)])
        engine.add(Track(request: Self.pay, response: Response(status: 201),
                         scenario: ScenarioStep("checkout", newState: "Paid")))
        #expect(Fixtures.status(engine.match(Self.pay)) == 201)
        #expect(engine.scenario(named: "checkout")?.state == "Paid")
        #expect(Fixtures.status(engine.match(Self.cart)) == 200, "plain tracks are untouched")
    }

    /// How a 64-client test's stubs are built: as exact tracks or as rules.
    enum StubKind: CaseIterable, Sendable { case tracks, rules }

    static func engine(_ kind: StubKind, steps: [(required: String, next: String?)], url: String) throws -> ReplayEngine {
        let request = Fixtures.get(url)
        switch kind {
        case .tracks:
            return ReplayEngine(tracks: steps.enumerated().map { offset, step in
                Track(request: request, response: Response(status: 200 + offset),
                      scenario: ScenarioStep("walk", requiredState: step.required, newState: step.next))
            }, strategy: .uniquePlay)
        case .rules:
            return try ReplayEngine(rules: steps.enumerated().map { offset, step in
                Rule(pattern: "/walk$", response: Response(status: 200 + offset),
                     scenario: ScenarioStep("walk", requiredState: step.required, newState: step.next))
            })
        }
    }

    /// Fires `perClient` requests from each of 64 tasks; each task's statuses in the order it saw them.
    static func walkConcurrently(_ engine: ReplayEngine, url: String, perClient: Int) async -> [[Int]] {
        await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<64 {
                group.addTask { (0..<perClient).map { _ in Fixtures.status(engine.match(Fixtures.get(url))) ?? -1 } }
            }
            var all: [[Int]] = []
            for await statuses in group { all.append(statuses) }
            return all
        }
    }

    @Test("64 clients walking Started → Paid → Shipped: each sees a legal sequence, each move happens once",
          arguments: StubKind.allCases)
    func concurrentLinearWalk(kind: StubKind) async throws {
        let url = "https://shop.example/walk"
        let engine = try Self.engine(kind, steps: [("Started", "Paid"), ("Paid", "Shipped"), ("Shipped", nil)], url: url)
        let clients = await Self.walkConcurrently(engine, url: url, perClient: 50)
        for statuses in clients {
            #expect(statuses == statuses.sorted(), "a client never sees the scenario go back: \(statuses)")
        }
        let all = clients.flatMap { $0 }
        #expect(all.filter { $0 == 200 }.count == 1, "Started answered exactly once")
        #expect(all.filter { $0 == 201 }.count == 1, "Paid answered exactly once")
        #expect(all.filter { $0 == 202 }.count == 64 * 50 - 2)
        #expect(engine.scenario(named: "walk")?.state == "Shipped")
    }

    @Test("64 clients around a 3-state cycle: every answer is one move, none lost", arguments: StubKind.allCases)
    func concurrentCycle(kind: StubKind) async throws {
        let url = "https://shop.example/walk"
        let engine = try Self.engine(kind, steps: [("Started", "A"), ("A", "B"), ("B", "Started")], url: url)
        let perClient = 100
        let clients = await Self.walkConcurrently(engine, url: url, perClient: perClient)
        let all = clients.flatMap { $0 }
        let answers = 64 * perClient
        #expect(!all.contains(-1), "in every state exactly one stub answers")
        // The answers, in the order the moves happened, are 200, 201, 202, 200, …: the counts say so
        // whatever the interleaving, and the final state is the number of moves modulo 3.
        #expect([200, 201, 202].map { status in all.filter { $0 == status }.count }
            == [0, 1, 2].map { (answers - $0 + 2) / 3 })
        #expect(engine.scenario(named: "walk")?.state == ["Started", "A", "B"][answers % 3])
    }

    /// One generated stub: which of three URLs it answers, as a track or a rule, and its states (-1: none).
    struct GeneratedStub {
        let url: Int, isRule: Bool, required: Int, next: Int

        static let states = ["Started", "A", "B", "C"]
        var step: ScenarioStep {
            ScenarioStep("s", requiredState: required < 0 ? nil : Self.states[required], newState: next < 0 ? nil : Self.states[next])
        }
    }

    @Test("any stubs, any requests: the engine answers as the model does (tracks by added order, then rules) and lands in its state")
    func modelCheck() async {
        let stubGen = zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: -1...3), Gen.int(in: -1...3))
            .map { GeneratedStub(url: $0.0, isRule: $0.1 == 1, required: $0.2, next: $0.3) }
        await propertyCheck(input: stubGen.array(of: 1...8), Gen.int(in: 0...2).array(of: 1...20)) { stubs, requests in
            let url = { (index: Int) in "https://p.example/u\(index)" }
            var tracks: [Track] = [], rules: [Rule] = []
            for (offset, stub) in stubs.enumerated() {
                if stub.isRule {
                    rules.append(Rule(pattern: "^https://p\\.example/u\(stub.url)$", response: Response(status: 200 + offset), scenario: stub.step))
                } else {
                    tracks.append(Track(request: Fixtures.get(url(stub.url)), response: Response(status: 200 + offset), scenario: stub.step))
                }
            }
            guard let engine = try? ReplayEngine(tracks: tracks, rules: rules) else {
                Issue.record("the generated rules compile")
                return
            }
            var state = "Started"
            for request in requests {
                let candidates = stubs.indices.filter { stubs[$0].url == request && !stubs[$0].isRule }
                    + stubs.indices.filter { stubs[$0].url == request && stubs[$0].isRule }
                let answer = candidates.first { stubs[$0].step.allows(state) }
                if let answer, let next = stubs[answer].step.newState { state = next }
                #expect(Fixtures.status(engine.match(Fixtures.get(url(request)))) == answer.map { 200 + $0 })
            }
            #expect(engine.scenario(named: "s")?.state == state)
        }
    }
}
