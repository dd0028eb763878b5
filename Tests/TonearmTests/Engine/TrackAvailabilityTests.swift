import Testing
@testable import Tonearm

/// Which tracks still answer under each strategy, as the inspector's cassette tab shows them: read
/// without moving any strategy.
@Suite("Engine: which tracks still answer")
struct TrackAvailabilityTests {
    private static let a = Request(url: "https://api.example.com/a")
    private static let b = Request(url: "https://api.example.com/b")
    private static let tracks = [
        Track(request: a, response: Response(body: "a1")), Track(request: a, response: Response(body: "a2")),
        Track(request: b, response: Response(body: "b1")),
    ]

    private func playable(_ engine: ReplayEngine) -> [Bool?] {
        (0..<3).map { engine.isPlayable(trackAt: $0) }
    }

    @Test("Unique-play: a played track is used up; the others still answer; reset makes all playable again")
    func uniquePlay() {
        let engine = ReplayEngine(tracks: Self.tracks, strategy: .uniquePlay)
        #expect(playable(engine) == [true, true, true])
        _ = engine.match(Self.a)
        #expect(playable(engine) == [false, true, true])
        _ = engine.peek(Self.a)
        #expect(playable(engine) == [false, true, true], "peeking moves nothing")
        _ = engine.match(Self.a)
        _ = engine.match(Self.b)
        #expect(playable(engine) == [false, false, false])
        engine.reset()
        #expect(playable(engine) == [true, true, true])
    }

    @Test("FIFO: once its key's queue is through, the last track played keeps answering")
    func fifo() {
        let engine = ReplayEngine(tracks: Self.tracks, strategy: .fifo())
        _ = engine.match(Self.a)
        #expect(playable(engine) == [false, true, true])
        _ = engine.match(Self.a)
        #expect(playable(engine) == [false, true, true])
    }

    @Test("Strict order: the tracks the sequence passed are used up; repeat never uses any up")
    func strictOrderAndRepeat() {
        let strict = ReplayEngine(tracks: Self.tracks, strategy: .strictOrder)
        _ = strict.match(Self.a)
        #expect(playable(strict) == [false, true, true])
        let repeating = ReplayEngine(tracks: Self.tracks, strategy: .repeat)
        _ = repeating.match(Self.a)
        #expect(playable(repeating) == [nil, nil, nil])
    }
}
