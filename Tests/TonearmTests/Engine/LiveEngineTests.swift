import Testing
@testable import Tonearm

/// Tracks and rules added to and removed from an engine that is already answering.
@Suite("Live engine")
struct LiveEngineTests {
    let users = Fixtures.get("https://api.example.com/users")
    let posts = Fixtures.get("https://api.example.com/posts")

    @Test("repeat: an added track answers a new key; a second track for a key waits behind the first")
    func repeatAdds() {
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: .repeat)
        #expect(Fixtures.status(engine.match(posts)) == nil)
        engine.add(Fixtures.track(posts, status: 201))
        #expect(Fixtures.status(engine.match(posts)) == 201)
        let second = engine.add(Fixtures.track(users, status: 500))
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(engine.remove(ReplayEngine.EntryID(kind: .track, number: 0)))
        #expect(Fixtures.status(engine.match(users)) == 500, "removing the first lets the next one answer")
        #expect(engine.remove(second))
        #expect(engine.match(users).missReport?.reason == .notRecorded)
    }

    @Test("fifo: an added track joins the back of its key's queue, even once the key is exhausted")
    func fifoAdds() {
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: .fifo())
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(Fixtures.status(engine.match(users)) == 200, "exhausted: the last track repeats")
        engine.add(Fixtures.track(users, status: 201))
        engine.add(Fixtures.track(users, status: 202))
        #expect([engine.match(users), engine.match(users), engine.match(users)].map(Fixtures.status) == [201, 202, 202])
    }

    @Test("unique-play: an added track is one more play for its key")
    func uniquePlayAdds() {
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: .uniquePlay)
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(engine.match(users).missReport?.reason == .exhausted(trackCount: 1))
        engine.add(Fixtures.track(users, status: 201))
        #expect(Fixtures.status(engine.match(users)) == 201)
        #expect(engine.match(users).missReport?.reason == .exhausted(trackCount: 2))
    }

    @Test("strict order: an added track joins the end of the order")
    func strictOrderAdds() {
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)], strategy: .strictOrder)
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(engine.match(posts).missReport?.reason == .sequenceFinished(trackCount: 1))
        engine.add(Fixtures.track(posts, status: 201))
        engine.add(Fixtures.track(users, status: 202))
        #expect(engine.match(users).missReport?.reason == .outOfOrder(expectedPosition: 1))
        #expect(Fixtures.status(engine.match(posts)) == 201)
        #expect(Fixtures.status(engine.match(users)) == 202)
    }

    @Test("a track played by its recording request: repeat and fifo replay it, unique-play and strict order skip it")
    func playedByRecording() {
        func engine(_ strategy: Strategy) -> ReplayEngine {
            let engine = ReplayEngine(strategy: strategy)
            engine.add(Fixtures.track(users, status: 200), playedByRecordingRequest: true)
            return engine
        }
        #expect(Fixtures.status(engine(.repeat).match(users)) == 200)
        #expect(Fixtures.status(engine(.fifo()).match(users)) == 200)
        #expect(engine(.uniquePlay).match(users).missReport?.reason == .exhausted(trackCount: 1))
        #expect(engine(.strictOrder).match(users).missReport?.reason == .sequenceFinished(trackCount: 1))
        let reset = engine(.uniquePlay)
        reset.reset()
        #expect(Fixtures.status(reset.match(users)) == 200, "reset makes a recorded track playable")
    }

    @Test("an added rule takes its place by priority, after equal priorities; a removed rule stops answering")
    func rulesAddAndRemove() throws {
        let engine = try ReplayEngine(rules: [
            Rule(name: "any user", pattern: "^https://api\\.example\\.com/users", response: Response(status: 200))
        ])
        let samePriority = try engine.add(
            Rule(name: "same", pattern: "^https://api\\.example\\.com/users$", response: Response(status: 201)))
        #expect(Fixtures.status(engine.match(users)) == 200, "equal priority: the earlier rule first")
        let urgent = try engine.add(
            Rule(name: "urgent", pattern: "/users$", priority: 1, response: Response(status: 202)))
        #expect(Fixtures.status(engine.match(users)) == 202)
        #expect(engine.remove(urgent))
        #expect(!engine.remove(urgent), "a removed rule cannot be removed again")
        #expect(Fixtures.status(engine.match(users)) == 200)
        #expect(engine.remove(ReplayEngine.EntryID(kind: .rule, number: 0)))
        #expect(Fixtures.status(engine.match(users)) == 201)
        #expect(engine.remove(samePriority))
        #expect(engine.match(users).missReport != nil)
        #expect(engine.rules.isEmpty)
    }

    @Test("tracks answer before rules, whichever was added first")
    func tracksBeforeRules() throws {
        let engine = try ReplayEngine(rules: [Rule(pattern: ".*", response: Response(status: 404))])
        #expect(Fixtures.status(engine.match(users)) == 404)
        engine.add(Fixtures.track(users, status: 200))
        #expect(Fixtures.status(engine.match(users)) == 200)
    }

    @Test("an invalid added rule names itself and adds nothing")
    func invalidRule() {
        let engine = ReplayEngine()
        #expect(throws: RuleError.self) { try engine.add(Rule(name: "broken", pattern: "(", response: Response())) }
        #expect(engine.rules.isEmpty)
    }

    @Test("the tracks snapshot lists live tracks in added order")
    func tracksSnapshot() {
        let engine = ReplayEngine(tracks: [Fixtures.track(users, status: 200)])
        let added = engine.add(Fixtures.track(posts, status: 201))
        #expect(engine.tracks.map(\.response?.status) == [200, 201])
        engine.remove(added)
        #expect(engine.tracks.map(\.response?.status) == [200])
        #expect(!engine.remove(added))
    }

    @Test("the index grows through many chunk and table generations without losing a key")
    func growth() {
        let engine = ReplayEngine(strategy: .uniquePlay)
        let requests = (0..<5_000).map { Fixtures.get("https://api.example.com/items/\($0)") }
        for (number, request) in requests.enumerated() { engine.add(Fixtures.track(request, status: 200 + number % 100)) }
        #expect(requests.enumerated().allSatisfy { Fixtures.status(engine.match($0.element)) == 200 + $0.offset % 100 })
        #expect(engine.index.distinctKeyCount == 5_000)
    }
}

@Suite("Live engine concurrency")
struct LiveEngineConcurrencyTests {
    @Test("unique-play while another task adds: no track plays twice, and every added track plays")
    func uniquePlayWhileAdding() async {
        let keyCount = 50, added = 2_000
        let requests = (0..<keyCount).map { Fixtures.get("https://api.example.com/items/\($0)") }
        let engine = ReplayEngine(strategy: .uniquePlay)
        let plays = await withTaskGroup(of: [Int].self) { group in
            group.addTask {
                for number in 0..<added { engine.add(Fixtures.track(requests[number % keyCount], status: 200)) }
                return []
            }
            for task in 0..<4 {
                group.addTask {
                    var played: [Int] = []
                    for step in 0..<600 {
                        if let position = engine.match(requests[(task * 7 + step) % keyCount]).hit?.trackPosition {
                            played.append(position)
                        }
                    }
                    return played
                }
            }
            var all: [Int] = []
            for await played in group { all += played }
            return all
        }
        #expect(Set(plays).count == plays.count, "no track played twice")
        // Whatever the matchers missed is still there, each track exactly once.
        var drained: [Int] = []
        for request in requests {
            while let position = engine.match(request).hit?.trackPosition { drained.append(position) }
        }
        #expect(Set(plays + drained) == Set(0..<added), "every added track became visible and played once")
        #expect(plays.count + drained.count == added)
    }

    @Test("removing tracks while others match: every request is answered, then the rule once every track is gone")
    func removeWhileMatching() async throws {
        let request = Fixtures.get("https://api.example.com/users")
        let engine = try ReplayEngine(
            tracks: (0..<200).map { Fixtures.track(request, status: 200 + $0 % 2) },
            rules: [Rule(pattern: ".*", response: Response(status: 404))], strategy: .repeat)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for position in 0..<200 { engine.remove(ReplayEngine.EntryID(kind: .track, number: position)) }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 { #expect(Fixtures.status(engine.match(request)) != nil) }
                }
            }
        }
        #expect(Fixtures.status(engine.match(request)) == 404, "every track removed: the rule answers")
        #expect(engine.remove(ReplayEngine.EntryID(kind: .rule, number: 0)))
        #expect(engine.match(request).missReport != nil)
    }
}
