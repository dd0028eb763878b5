import Foundation
import Synchronization
import Testing
import TonearmTestSupport
@testable import Tonearm

/// The core's hand-written lock-free containers, each driven through its racy paths by several threads
/// at once: claims racing on one slot, chunks allocated on first touch by whoever gets there, readers
/// walking while the single writer grows, rewinds while requests play. Each test asserts what a user
/// relies on (a track plays once, an insert is never lost, a reader never sees half a value); CI also
/// runs this suite under ThreadSanitizer (scripts/tsan.sh), which fails on any unordered access.
@Suite("Lock-free containers under concurrency")
struct LockFreeConcurrencyTests {
    @Test("threads claiming the same fresh slots claim each exactly once, whoever allocates the chunk")
    func atomicSlotsClaims() {
        let slots = AtomicSlots()
        // 6,000 slots span seven chunks, each first touched by all six threads at once.
        let slotCount = 6_000, threadCount = 6
        let claimed = RacingThreads.run(threadCount) { thread in
            (0..<slotCount).filter { slots.compareExchange($0, expected: 0, desired: thread + 1) }
        }
        #expect(claimed.map(\.count).reduce(0, +) == slotCount, "no claim lost, none made twice")
        #expect(Set(claimed.joined()).count == slotCount)
        for (thread, indices) in claimed.enumerated() {
            #expect(indices.allSatisfy { slots.load($0) == thread + 1 }, "a slot keeps its claimer's value")
        }
    }

    @Test("threads advancing one counter by compare-and-exchange take every step exactly once")
    func atomicCountersAdvance() {
        let counters = AtomicCounters(count: 1)
        let stepCount = 10_000
        let taken = RacingThreads.run(6) { _ in
            var taken: [Int] = []
            while true {
                let step = counters.value(0)
                if step >= stepCount { return taken }
                if counters.advance(0, from: step, to: step + 1) { taken.append(step) }
            }
        }
        #expect(taken.joined().sorted() == Array(0..<stepCount))
        counters.resetAll()
        #expect(counters.value(0) == 0)
    }

    /// An element with heap storage and two numbers that must agree: half of one is a torn read.
    struct Sample: Sendable, Equatable {
        let number: Int
        let text: String
        let square: Int

        init(_ number: Int) {
            self.number = number
            text = "sample \(number), long enough to live on the heap"
            square = number * number
        }
    }

    @Test("readers of a grow-only array during appends see every published element whole")
    func growOnlyArrayReadersDuringAppends() {
        let baseCount = 100, appendCount = 8_000
        let array = GrowOnlyArray((0..<baseCount).map(Sample.init))
        let done = SharedCount()
        let results = RacingThreads.run(4) { thread -> (torn: Int, read: Int) in
            if thread == 0 {
                for number in baseCount..<(baseCount + appendCount) { array.append(Sample(number)) }
                done.value.store(1, ordering: .releasing)
                return (0, 0)
            }
            var torn = 0, read = 0, seen = 0
            while done.value.load(ordering: .acquiring) == 0 || seen < array.count {
                let count = array.count
                // Every element published since the last look, and one old one.
                for index in seen..<count where array[index] != Sample(index) { torn += 1 }
                if count > 0, array[(read &* 7919) % count] != Sample((read &* 7919) % count) { torn += 1 }
                read += count - seen + 1
                seen = count
            }
            return (torn, read)
        }
        #expect(results.map(\.torn).reduce(0, +) == 0, "no reader saw a half-written element")
        #expect(array.count == baseCount + appendCount)
    }

    /// Keys spread like the XXH3 outputs the table holds, so they land all over it.
    static func key(_ number: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: number &+ 1) &* 0x9E37_79B9_7F4A_7C15
    }

    @Test("a key inserted before a lookup is found by it, through every growth of the table")
    func keyTableLookupsDuringGrowth() {
        // From 8 slots to 16,384: eleven generations, each published while readers probe the last.
        let table = KeyTable(capacityFor: 0)
        let keyCount = 10_000
        let inserted = SharedCount()
        let results = RacingThreads.run(4) { thread -> (lost: Int, wrong: Int) in
            if thread == 0 {
                for number in 0..<keyCount {
                    table.insert(Self.key(number), group: number)
                    inserted.value.store(number + 1, ordering: .releasing)
                }
                return (0, 0)
            }
            var lost = 0, wrong = 0, probe = thread
            while true {
                let published = inserted.value.load(ordering: .acquiring)
                if published == keyCount { break }
                guard published > 0 else { continue }
                // The newest key, and an old one that has moved through every later growth.
                for number in [published - 1, (probe &* 7919) % published] {
                    switch table.group(for: Self.key(number), where: { _ in true }) {
                    case nil: lost += 1
                    case number?: break
                    case _?: wrong += 1
                    }
                }
                if table.group(for: Self.key(keyCount + probe % 1_000), where: { _ in true }) != nil { wrong += 1 }
                probe += 1
            }
            return (lost, wrong)
        }
        #expect(results.map(\.lost).reduce(0, +) == 0, "no insert lost")
        #expect(results.map(\.wrong).reduce(0, +) == 0, "no key answered with another's group")
        #expect((0..<keyCount).allSatisfy { table.group(for: Self.key($0), where: { _ in true }) == $0 })
    }

    @Test("a reader walking a group while members are added sees them in added order, none lost, none foreign")
    func trackGroupingWalksDuringAdds() {
        // Four hashes shared by 40 groups told apart by their checks: lookups must pass over
        // colliding groups, as two requests whose first hash collides do.
        let grouping = TrackGrouping(checked: true)
        let groupCount = 40, positionCount = 6_000
        let added = SharedCount()
        let results = RacingThreads.run(4) { thread -> Int in
            if thread == 0 {
                for position in 0..<positionCount {
                    grouping.add(position: position, hash: UInt64(position % 4), check: UInt64(position % groupCount))
                    added.value.store(position + 1, ordering: .releasing)
                }
                return 0
            }
            var wrong = 0, walk = thread
            while true {
                let published = added.value.load(ordering: .acquiring)
                if published == positionCount { break }
                let member = walk % groupCount
                walk += 1
                guard member < published else { continue }
                guard let group = grouping.group(for: UInt64(member % 4), check: UInt64(member % groupCount)) else {
                    wrong += 1
                    continue
                }
                let members = Array(grouping.members(of: group).prefix(100))
                let expected = Array(stride(from: member, to: positionCount, by: groupCount).prefix(100))
                // Everything published before the walk began is there, in order; later ones may be too.
                let known = expected.filter { $0 < published }.count
                if members.count < known || members != Array(expected.prefix(members.count)) { wrong += 1 }
            }
            return wrong
        }
        #expect(results.reduce(0, +) == 0)
        #expect(grouping.groupCount == groupCount)
    }

    /// Track `number` of the storage test: every third too large to pack and kept as a value, the
    /// others packed, 1,000 of them filling four of the packed arena's 64 KiB chunks.
    static func storedTrack(_ number: Int) -> Track {
        let request = Fixtures.get("https://store.example/tracks/\(number)")
        let body = Array(repeating: UInt8(truncatingIfNeeded: number), count: number % 3 == 0 ? 1_000 : 200)
        return Track(request: request, response: Response(status: 200 + number % 300, body: body))
    }

    @Test("tracks read by position and matched while others are added come back whole, packed or not")
    func trackStoreReadsDuringAdds() {
        let engine = ReplayEngine(strategy: .repeat)
        let trackCount = 1_500
        let added = SharedCount()
        let results = RacingThreads.run(4) { thread -> (misread: Int, mismatched: Int) in
            if thread == 0 {
                for number in 0..<trackCount {
                    engine.add(Self.storedTrack(number))
                    added.value.store(number + 1, ordering: .releasing)
                }
                return (0, 0)
            }
            var misread = 0, mismatched = 0, read = thread
            while true {
                // A position is readable once published; a track answers requests once `add` returned.
                let published = engine.index.positionCount, returned = added.value.load(ordering: .acquiring)
                if returned == trackCount { break }
                guard published > 0 else { continue }
                for position in [published - 1, (read &* 7919) % published] {
                    if engine.index.track(at: position) != Self.storedTrack(position) { misread += 1 }
                }
                if returned > 0 {
                    let matched = (read &* 104_729) % returned
                    if engine.match(Self.storedTrack(matched).request).hit?.track != Self.storedTrack(matched) { mismatched += 1 }
                }
                read += 1
            }
            return (misread, mismatched)
        }
        #expect(results.map(\.misread).reduce(0, +) == 0, "every track read by position was the one added")
        #expect(results.map(\.mismatched).reduce(0, +) == 0, "every added track answered its request")
        let storage = engine.index.trackStorage
        #expect(storage.packed == 1_000 && storage.values == 500, "both kinds were exercised")
    }

    @Test("unique-play on many threads while the engine rewinds: hits are the request's own, at most once per rewind")
    func uniquePlayWithResets() {
        let keyCount = 20, tracksPerKey = 20, resetCount = 30
        let requests = (0..<keyCount).map { Fixtures.get("https://api.example.com/reset/\($0)") }
        let tracks = (0..<(keyCount * tracksPerKey)).map { Fixtures.track(requests[$0 % keyCount], status: 200 + $0 % keyCount) }
        let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
        let plays = RacingThreads.run(5) { thread -> (positions: [Int], foreign: Int) in
            if thread == 0 {
                for _ in 0..<resetCount {
                    engine.reset()
                    Thread.sleep(forTimeInterval: 0.001)
                }
                return ([], 0)
            }
            var positions: [Int] = [], foreign = 0
            // Few enough that most requests hit: a miss builds a report, which is not under test here.
            for step in 0..<300 {
                let key = (thread * 7 + step) % keyCount
                guard let hit = engine.match(requests[key]).hit else { continue }
                if hit.track.response?.status != 200 + key { foreign += 1 }
                if let position = hit.trackPosition { positions.append(position) }
            }
            return (positions, foreign)
        }
        #expect(plays.map(\.foreign).reduce(0, +) == 0, "every hit answers its own request")
        let counts = Dictionary(grouping: plays.flatMap(\.positions), by: { $0 }).mapValues(\.count)
        #expect(counts.values.allSatisfy { $0 <= resetCount + 1 }, "a track plays at most once between rewinds")
        // Quiet again: one rewind, and every track plays exactly once.
        engine.reset()
        var drained: [Int] = []
        for request in requests {
            while let position = engine.match(request).hit?.trackPosition { drained.append(position) }
        }
        #expect(drained.sorted() == Array(0..<tracks.count))
    }

    /// Rule `number`, filed by first segment, by origin or in no bucket; falling priorities put
    /// each rule of the first kind at the head of its list, where readers start walking.
    static func rule(_ number: Int) -> Rule {
        let response = Response(status: 200 + number)
        switch number % 3 {
        case 0: return Rule(name: "r\(number)", pattern: "^/segment/\(number)$", target: .path, priority: 1_000 - number, response: response)
        case 1: return Rule(name: "r\(number)", pattern: "^https://origin\\.example/\(number)$", response: response)
        default: return Rule(name: "r\(number)", pattern: "/anywhere/\(number)$", target: .path, response: response)
        }
    }
    /// The request rule `number` alone answers.
    static func ruleRequest(_ number: Int) -> Request {
        switch number % 3 {
        case 0: return Fixtures.get("https://api.example.com/segment/\(number)")
        case 1: return Fixtures.get("https://origin.example/\(number)")
        default: return Fixtures.get("https://api.example.com/anywhere/\(number)")
        }
    }

    @Test("rules added while others match: a rule added before a request answers it, wherever it was filed")
    func liveRulesMatchDuringAdds() throws {
        let engine = ReplayEngine()
        let ruleCount = 240
        let added = SharedCount()
        let rules = (0..<ruleCount).map(Self.rule)
        let results = RacingThreads.run(4) { thread -> Int in
            if thread == 0 {
                for number in 0..<ruleCount {
                    _ = try? engine.add(rules[number])
                    added.value.store(number + 1, ordering: .releasing)
                }
                return 0
            }
            var wrong = 0, probe = thread
            while true {
                let published = added.value.load(ordering: .acquiring)
                if published == ruleCount { break }
                guard published > 0 else { continue }
                for number in [published - 1, (probe &* 7919) % published] {
                    if Fixtures.status(engine.match(Self.ruleRequest(number))) != 200 + number { wrong += 1 }
                }
                probe += 1
            }
            return wrong
        }
        #expect(results.reduce(0, +) == 0, "every published rule answered its own request")
        #expect(engine.rules.count == ruleCount)
    }
}
