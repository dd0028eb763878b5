import Testing
@testable import Tonearm

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("unique-play under 64 concurrent tasks: every track plays exactly once")
    func uniquePlayEveryTrackOnce() async {
        let keyCount = 1_000, tracksPerKey = 10
        let requests = (0..<keyCount).map { Fixtures.get("https://api.example.com/items/\($0)?page=1") }
        let tracks = (0..<(keyCount * tracksPerKey)).map { Fixtures.track(requests[$0 % keyCount], status: 200) }
        let engine = ReplayEngine(tracks: tracks, strategy: .uniquePlay)
        // 64 tasks fire 10,000 requests between them, plus 640 extra that must all miss as exhausted.
        let plays = await withTaskGroup(of: ([Int], Int).self) { group in
            for task in 0..<64 {
                group.addTask {
                    var played: [Int] = [], misses = 0
                    for step in 0..<166 {
                        let request = requests[(task * 166 + step) % keyCount]
                        if let position = engine.match(request).hit?.trackPosition { played.append(position) } else { misses += 1 }
                    }
                    return (played, misses)
                }
            }
            var all: [Int] = [], misses = 0
            for await (played, missed) in group { all += played; misses += missed }
            return (all, misses)
        }
        #expect(plays.0.count == tracks.count)
        #expect(Set(plays.0).count == tracks.count, "no track played twice")
        #expect(plays.1 == 64 * 166 - tracks.count)
    }

    @Test("strict order under concurrency never plays a step twice or skips one")
    func strictOrderConcurrent() async {
        let request = Fixtures.get("https://api.example.com/poll")
        let tracks = (0..<2_000).map { Fixtures.track(request, status: $0) }
        let engine = ReplayEngine(tracks: tracks, strategy: .strictOrder)
        let positions = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<16 {
                group.addTask { (0..<200).compactMap { _ in engine.match(request).hit?.trackPosition } }
            }
            var all: [Int] = []
            for await played in group { all += played }
            return all
        }
        #expect(positions.sorted() == Array(0..<2_000))
    }

    @Test("fifo under concurrency hands each queued response to exactly one caller before repeating the last")
    func fifoConcurrent() async {
        let request = Fixtures.get("https://api.example.com/queue")
        let tracks = (0..<100).map { Fixtures.track(request, status: $0) }
        let engine = ReplayEngine(tracks: tracks, strategy: .fifo())
        let all = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<25).map { _ in Fixtures.status(engine.match(request)) ?? -2 } }
            }
            var all: [Int] = []
            for await statuses in group { all += statuses }
            return all
        }
        #expect(Set(all.filter { $0 < 99 }).count == 99)
        #expect(all.filter { $0 == 99 }.count == 101)
    }
}
