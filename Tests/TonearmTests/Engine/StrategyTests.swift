import Testing
@testable import Tonearm

@Suite("Strategies")
struct StrategyTests {
    let users = Fixtures.get("https://api.example.com/users")
    let orders = Fixtures.get("https://api.example.com/orders")

    var threeUsersTracks: [Track] {
        [Fixtures.track(users, status: 201), Fixtures.track(users, status: 202), Fixtures.track(users, status: 203)]
    }

    @Test("repeat: the first track for a key answers every time")
    func repeatAnswersWithFirstTrack() {
        let engine = ReplayEngine(tracks: threeUsersTracks, strategy: .repeat)
        let statuses = (0..<5).map { _ in Fixtures.status(engine.match(users)) }
        #expect(statuses == [201, 201, 201, 201, 201])
        #expect(engine.match(users).hit?.trackPosition == 0)
    }

    @Test("fifo: tracks answer in recording order, then the last repeats")
    func fifoRepeatsLast() {
        let engine = ReplayEngine(tracks: threeUsersTracks, strategy: .fifo())
        let statuses = (0..<5).map { _ in Fixtures.status(engine.match(users)) }
        #expect(statuses == [201, 202, 203, 203, 203])
    }

    @Test("fifo with .miss: an exhausted queue misses and says it was exhausted")
    func fifoMissesWhenExhausted() throws {
        let engine = ReplayEngine(tracks: threeUsersTracks, strategy: .fifo(whenExhausted: .miss))
        for _ in 0..<3 { #expect(engine.match(users).hit != nil) }
        let report = try #require(engine.match(users).missReport)
        #expect(report.reason == .exhausted(trackCount: 3))
    }

    @Test("fifo queues errors too: a simulated timeout takes its turn")
    func fifoQueuesTransportErrors() {
        let tracks = [
            Fixtures.track(users, status: 503),
            Track(request: users, outcome: .transportError(.timedOut)),
            Fixtures.track(users, status: 200),
        ]
        let engine = ReplayEngine(tracks: tracks, strategy: .fifo())
        #expect(Fixtures.status(engine.match(users)) == 503)
        #expect(engine.match(users).hit?.track.outcome == .transportError(.timedOut))
        #expect(Fixtures.status(engine.match(users)) == 200)
    }

    @Test("unique-play: each track plays once; then the miss says exhausted, not never recorded")
    func uniquePlayExhausts() throws {
        let tracks = threeUsersTracks + [Fixtures.track(orders, status: 300)]
        let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
        let positions = (0..<3).compactMap { _ in engine.match(users).hit?.trackPosition }
        #expect(positions == [0, 1, 2])
        let exhausted = try #require(engine.match(users).missReport)
        #expect(exhausted.reason == .exhausted(trackCount: 3))
        #expect(exhausted.description.contains("all already played"))
        #expect(engine.match(orders).hit?.trackPosition == 3, "other keys keep their own queue")
        let never = try #require(engine.match(Fixtures.get("https://api.example.com/other")).missReport)
        #expect(never.reason == .notRecorded)
    }

    @Test("reset makes every track playable again")
    func resetRefills() {
        let engine = ReplayEngine(tracks: threeUsersTracks, strategy: .uniquePlay)
        for _ in 0..<3 { _ = engine.match(users) }
        #expect(engine.match(users).hit == nil)
        engine.reset()
        #expect(engine.match(users).hit?.trackPosition == 0)
    }

    @Test("strict order: requests must come in recorded order; a miss names the expected track")
    func strictOrder() throws {
        let tracks = [Fixtures.track(users, status: 1), Fixtures.track(orders, status: 2), Fixtures.track(users, status: 3)]
        let engine = ReplayEngine(tracks: tracks, strategy: .strictOrder)
        #expect(engine.match(users).hit?.trackPosition == 0)
        let outOfOrder = try #require(engine.match(users).missReport)
        #expect(outOfOrder.reason == .outOfOrder(expectedPosition: 1))
        #expect(outOfOrder.description.contains("expected track #1"))
        #expect(engine.match(orders).hit?.trackPosition == 1, "a miss does not advance the sequence")
        #expect(engine.match(users).hit?.trackPosition == 2)
        let finished = try #require(engine.match(users).missReport)
        #expect(finished.reason == .sequenceFinished(trackCount: 3))
    }

    @Test("chain: recorded tracks first, then rules, then a fallback rule")
    func chainTriesStagesInOrder() throws {
        let rules = try RuleSet([
            Rule(name: "orders", method: "GET", pattern: "^https://api\\.example\\.com/orders", response: Response(status: 299)),
        ])
        let fallback = try RuleSet([Rule(name: "fallback", pattern: ".*", response: Response(status: 404))])
        let engine = ReplayEngine(
            tracks: [Fixtures.track(users, status: 200)],
            strategy: .chain(.uniquePlay, .rules(rules), .rules(fallback)))
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(Fixtures.status(engine.match(orders)) == 299)
        let fallbackHit = try #require(engine.match(users).hit, "exhausted track falls through to the fallback")
        #expect(fallbackHit.source == .rule(name: "fallback", position: 0))
    }

    @Test("chain: when every stage misses, the report gives each stage's reason")
    func chainReportsEveryStage() throws {
        let rules = try RuleSet([Rule(pattern: "^https://elsewhere\\.example/", response: Response())])
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: .chain(.repeat, .rules(rules)))
        let report = try #require(engine.match(orders).missReport)
        #expect(report.reason == .everyStageMissed([.notRecorded, .noRuleMatched(ruleCount: 1, rulesTried: 0)]))
    }

    @Test("custom strategies plug in through the public protocol")
    func customStrategy() {
        struct AlwaysTeapot: MatchingStrategy {
            func match(_ request: IncomingRequest) -> StrategyOutcome {
                .hit(Hit(track: Track(request: request.request, response: Response(status: 418)), source: .custom("teapot")))
            }
        }
        let engine = ReplayEngine(tracks: [], strategy: .chain(.repeat, .custom { _ in AlwaysTeapot() }))
        #expect(Fixtures.status(engine.match(users)) == 418)
    }

    @Test("strategies that hold state are built fresh for every engine")
    func enginesDoNotShareState() {
        let strategy = Strategy.uniquePlay
        let first = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: strategy)
        let second = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: strategy)
        #expect(first.match(users).hit != nil)
        #expect(second.match(users).hit != nil)
    }
}
