import Testing
@testable import Tonearm

@Suite("Engine usage: how often each track and rule answered")
struct EngineUsageTests {
    private let items = Fixtures.get("https://api.example.com/items")
    private let users = Fixtures.get("https://api.example.com/users")
    private let orders = Fixtures.get("https://api.example.com/orders")

    @Test("repeat: each hit counts for the track that answered; a track nothing asked for stays at zero")
    func repeatCounts() {
        let engine = ReplayEngine(tracks: [Fixtures.track(items, status: 200), Fixtures.track(users, status: 200), Fixtures.track(orders, status: 200)])
        for _ in 0..<3 { _ = engine.match(items) }
        _ = engine.match(orders)
        _ = engine.match(Fixtures.get("https://api.example.com/missing"))
        #expect(engine.usage().trackPlays == [3, 0, 1])
        #expect(engine.usage().rulePlays == [])
    }

    @Test("FIFO counts each track of a sequence once it plays; the repeated last counts again")
    func fifoCounts() {
        let engine = ReplayEngine(
            tracks: [Fixtures.track(items, status: 200), Fixtures.track(items, status: 201)], strategy: .fifo(whenExhausted: .repeatLast))
        for _ in 0..<4 { _ = engine.match(items) }
        #expect(engine.usage().trackPlays == [1, 3])
    }

    @Test("rules count by their position, tracks added later and removed ones keep theirs, reset keeps the counts")
    func rulesAndLiveChanges() throws {
        let engine = try ReplayEngine(
            tracks: [Fixtures.track(items, status: 200)],
            rules: [
                Rule(name: "users", pattern: "/users$", target: .path, response: Response(status: 200)),
                Rule(name: "never", pattern: "/nothing$", target: .path, response: Response(status: 200)),
            ])
        _ = engine.match(users)
        _ = engine.match(users)
        let added = engine.add(Fixtures.track(orders, status: 200))
        _ = engine.match(orders)
        engine.remove(added)
        _ = engine.match(orders)
        engine.reset()
        _ = engine.match(items)
        #expect(engine.usage() == EngineUsage(trackPlays: [1, 1], rulePlays: [2, 0]))
    }

    @Test("a scenario track and a stub server's ranked rule answer count too")
    func scenarioAndRankedRules() throws {
        var stepped = Fixtures.track(users, status: 200)
        stepped.scenario = ScenarioStep("login", requiredState: ScenarioStep.startedState, newState: "in")
        let engine = try ReplayEngine(
            tracks: [stepped], rules: [Rule(name: "orders", pattern: "/orders$", target: .path, priority: 1, response: Response(status: 204))])
        _ = engine.match(users)
        let incoming = engine.incomingRequest(for: orders)
        #expect(engine.matchRules(incoming, priorityBelow: 5) != nil)
        #expect(engine.usage() == EngineUsage(trackPlays: [1], rulePlays: [1]))
    }

    @Test("counts from many tasks at once add up exactly (no lock, no lost increments)")
    func concurrentCounting() async {
        let requests = (0..<50).map { Fixtures.get("https://api.example.com/items/\($0)") }
        let engine = ReplayEngine(tracks: requests.map { Fixtures.track($0, status: 200) })
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<1_000 { _ = engine.match(requests[(task + step) % requests.count]) }
                }
            }
        }
        let plays = engine.usage().trackPlays
        #expect(plays.reduce(0, +) == 16_000)
        #expect(plays.allSatisfy { $0 == 320 })
    }
}
