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

    @Test("a hit reads its track when asked: the same each time, after the track is removed, and as set")
    func hitReadsItsTrackOnDemand() async {
        await propertyCheck(input: Self.trackGen) { track in
            let engine = ReplayEngine(tracks: [])
            let id = engine.add(track)
            guard var hit = engine.match(track.request).hit else {
                Issue.record("the track added does not answer its own request")
                return
            }
            #expect(hit.track == track)
            #expect(hit.track == track, "a second read decodes the same track")
            engine.remove(id)
            #expect(hit.track == track, "a hit outlives its track's removal: positions and storage are never reused")
            let other = Track(request: Request(url: "https://other.example/"), response: Response(status: 201))
            hit.track = other
            #expect(hit.track == other)
            #expect(hit.source == .track(position: 0))
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

    /// Method and URL spellings a request may send for a recorded track: the same bytes (shared), the
    /// same key in other bytes, the same length in other bytes, non-ASCII, empty.
    static let spellings = [
        ("GET", "https://t.example/café?a=1&b="), ("get", "HTTPS://T.EXAMPLE/caf%C3%A9?b=&a=1"),
        ("GET", "https://t.example/cafe?a=1&b=x"), ("POST", "https://t.example/café?a=1&b="),
        ("GET", "https://t.example/café?a=1&b=&"), ("GeT", ""), ("GET", "https://t.example/"),
    ]

    @Test("a packed track read for a request is the recorded track, whatever the request's strings")
    func sharedStringsKeepTheRecordedTrack() async {
        let spellingGen = Gen.int(in: 0...(Self.spellings.count - 1)).map { Self.spellings[$0] }
        await propertyCheck(input: spellingGen, spellingGen, Gen.int(in: 0...2)) { recorded, sent, headerCount in
            let headers = (0..<headerCount).map { HeaderField("X-\($0)", "v\($0)") }
            let track = Track(
                request: Request(method: recorded.0, url: recorded.1, headers: headers), response: Response(status: 201))
            let engine = ReplayEngine(tracks: [track])
            #expect(engine.index.trackStorage.packed == 1)
            let request = Request(method: sent.0, url: sent.1, headers: headers)
            #expect(engine.index.recordedTrack(at: 0, answering: request) == track)
            // A request with the track's key but other bytes (lowercase method, other URL spelling)
            // gets the track as recorded, not its own strings.
            if let hit = engine.match(request).hit {
                #expect(hit.track == track)
                #expect(hit.track.request.method.utf8.elementsEqual(recorded.0.utf8))
                #expect(hit.track.request.url.utf8.elementsEqual(recorded.1.utf8))
            }
        }
    }

    @Test("byte equality, eight bytes at a time, agrees with comparing arrays")
    func bytesEqual() async {
        let bytesGen = Gen.int(in: 0...3).array(of: 0...40).map { $0.map { UInt8(truncatingIfNeeded: $0 * 85) } }
        await propertyCheck(input: bytesGen, Gen.int(in: 0...40), Gen.bool) { bytes, position, flip in
            var other = bytes
            if flip, position < other.count { other[position] ^= 0x01 }
            let equal = bytes.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in URLBytes.equal(a, b) } }
            #expect(equal == (bytes == other))
            let prefix = Array(bytes.prefix(position))
            let prefixEqual = bytes.withUnsafeBufferPointer { a in prefix.withUnsafeBufferPointer { b in URLBytes.equal(a, b) } }
            #expect(prefixEqual == (bytes == prefix))
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
