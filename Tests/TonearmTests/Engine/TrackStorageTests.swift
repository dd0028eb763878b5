import PropertyBased
import Testing
@testable import Tonearm

/// The index stores small tracks packed and others as values; whichever it picks, a user gets back
/// exactly the track they added.
@Suite("Track storage")
struct TrackStorageTests {
    static let texts = ["", "GET", "a", "Accept", "application/json", "https://t.example/1", "café ☕", String(repeating: "x", count: 300)]
    static let textGen = Gen.int(in: 0...(texts.count - 1)).map { texts[$0] }

    /// Tracks of every shape the store distinguishes: tiny, with headers, bodies and names, past the
    /// packed limit, with a delay, and simulating a transport error.
    static let trackGen = zip(
        zip(textGen, Gen.int(in: 0...9_999), textGen.array(of: 0...4), textGen),
        zip(Gen.int(in: -1...999), textGen.array(of: 0...3), Gen.int(in: 0...5), Gen.int(in: 0...3))
    ).map { request, response -> Track in
        let (method, number, headerTexts, body) = request
        let (status, responseHeaderTexts, name, variant) = response
        let url = "https://t.example/\(number)"
        let headers = headerTexts.map { HeaderField($0 + "-name", $0) }
        let tracked = Request(method: method.isEmpty ? "GET" : method, url: url, headers: headers, body: body)
        let responseHeaders = responseHeaderTexts.map { HeaderField("X-" + $0, $0) }
        let trackName = name == 0 ? "track \(number)" : nil
        switch variant {
        case 1:
            return Track(request: tracked, response: Response(status: status, headers: responseHeaders, body: body), name: trackName, delay: .milliseconds(number))
        case 2:
            return Track(request: tracked, outcome: .transportError(.timedOut), name: trackName)
        default:
            return Track(request: tracked, response: Response(status: status, headers: responseHeaders, body: body), name: trackName)
        }
    }

    @Test("every track comes back equal, from the track list, by position, and as a hit")
    func roundTrip() async {
        await propertyCheck(input: Self.trackGen.array(of: 0...12)) { tracks in
            let engine = ReplayEngine(tracks: tracks)
            #expect(engine.tracks == tracks)
            for (position, track) in tracks.enumerated() {
                #expect(engine.index.track(at: position) == track)
            }
            for track in tracks {
                // Under repeat the first track with the request's key answers.
                let key = engine.incomingRequest(for: track.request).key
                let first = tracks.first { engine.incomingRequest(for: $0.request).key == key }
                #expect(engine.match(track.request).hit?.track == first)
            }
        }
    }

    @Test("tiny tracks are packed; large, delayed and failing ones are kept as values")
    func packedOrValues() {
        let tiny = Track(request: Request(url: "https://t.example/12345"), response: Response())
        let large = Track(request: Request(url: "https://t.example/big"), response: Response(body: Array(repeating: 0x61, count: 4_096)))
        let delayed = Track(request: Request(url: "https://t.example/slow"), response: Response(), delay: .seconds(1))
        let failing = Track(request: Request(url: "https://t.example/down"), outcome: .transportError(.notConnectedToInternet))
        let engine = ReplayEngine(tracks: [tiny, large, delayed, failing, tiny])
        #expect(engine.index.trackStorage.packed == 2)
        #expect(engine.index.trackStorage.values == 3)
        #expect(engine.tracks == [tiny, large, delayed, failing, tiny])
    }

    @Test("an engine built track by track answers as one made from the array")
    func builtTrackByTrack() async {
        await propertyCheck(input: Self.trackGen.array(of: 0...12)) { tracks in
            let built = ReplayEngine(strategy: .fifo(whenExhausted: .repeatLast)) { add in tracks.forEach(add) }
            let fromArray = ReplayEngine(tracks: tracks, strategy: .fifo(whenExhausted: .repeatLast))
            #expect(built.tracks == fromArray.tracks)
            for track in tracks + tracks {
                #expect(built.match(track.request).hit?.track == fromArray.match(track.request).hit?.track)
            }
        }
    }

    @Test("building past the key tables' first sizes keeps every track findable")
    func buildingGrowsTables() {
        let tracks = (0..<5_000).map { Track(request: Request(url: "https://t.example/\($0)"), response: Response(status: 200 + $0 % 3)) }
        let engine = ReplayEngine { add in tracks.forEach(add) }
        #expect(engine.index.trackStorage.packed == tracks.count)
        for track in tracks.shuffled().prefix(500) {
            #expect(engine.match(track.request).hit?.track == track)
        }
    }
}
