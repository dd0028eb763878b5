import Foundation
import Testing
import Tonearm
import TonearmCassettes

/// How cassettes keep a recorded stream (``Track/pacing``): Server-Sent Events readably, other bodies
/// with their parts, in native JSON and HAR, byte for byte; and what a loader refuses.
@Suite("Streams in cassettes")
struct StreamedBodyFormatTests {
    private static func track(_ body: String, contentType: String, parts: [(Int, Int)]) -> Track {
        Track(
            request: Request(url: "https://api.example.com/v1/chat"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", contentType)], body: body),
            pacing: BodyPacing(parts: parts.map { BodyPacing.Part(offset: .milliseconds($0.0), byteCount: $0.1) }))
    }

    private static func native(_ track: Track) throws -> String {
        String(decoding: try NativeFormat.encode(Cassette(tracks: [track])), as: UTF8.self)
    }

    @Test("Server-Sent Events are kept one object per event: fields in order, JSON data as JSON, the time each event was complete; they load back byte for byte, one part per event")
    func eventsReadably() throws {
        // Network chunks cut the second event in two: it is complete when its second half arrives.
        let body = "event: delta\ndata: {\"text\":\"Hel\"}\nid: 1\n\nevent: delta\ndata: {\"text\":\"lo\"}\n\ndata: [DONE]\n\n"
        let first = "event: delta\ndata: {\"text\":\"Hel\"}\nid: 1\n\n".utf8.count
        let track = Self.track(body, contentType: "text/event-stream; charset=utf-8", parts: [(5, first), (120, 10), (180, 24), (400, 14)])
        let text = try Self.native(track)
        #expect(text.contains(#""events""#))
        #expect(!text.contains(#""body""#))
        #expect(text.contains("\"at\": 5,\n            \"event\": \"delta\",\n            \"json\": {\n              \"text\": \"Hel\"\n            },\n            \"id\": \"1\""))
        #expect(text.contains("\"at\": 400,\n            \"data\": \"[DONE]\""))
        let loaded = try NativeFormat.decode(Array(text.utf8)).tracks[0]
        #expect(loaded.response?.body == Array(body.utf8))
        #expect(loaded.pacing?.parts.map(\.offset) == [.milliseconds(5), .milliseconds(180), .milliseconds(400)])
        #expect(loaded.pacing?.parts.map(\.byteCount) == [first, "event: delta\ndata: {\"text\":\"lo\"}\n\n".utf8.count, 14])
        // Saved again, the same bytes.
        #expect(try Self.native(loaded) == text)
    }

    @Test("Events Tonearm does not write back as they are (CRLF, comments, a missing space, an unfinished end) are kept as their text, and still load back byte for byte")
    func eventsAsText() throws {
        let body = ": keep-alive\n\ndata:tight\n\nevent: a\r\ndata: b\r\n\r\ndata: multi\ndata: line\n\ndata: cut off"
        let track = Self.track(body, contentType: "text/event-stream", parts: [(0, 14), (10, 13), (20, 24), (30, 30), (40, body.utf8.count - 81)])
        let text = try Self.native(track)
        #expect(text.contains(#""text": ": keep-alive\n\n""#))
        #expect(text.contains(#""data": "multi\nline""#))
        let loaded = try NativeFormat.decode(Array(text.utf8)).tracks[0]
        #expect(loaded.response?.body == Array(body.utf8))
        #expect(loaded.pacing?.parts.count == 5)
        #expect(try Self.native(loaded) == text)
    }

    @Test("Any other body keeps its parts beside it, [offset, length] pairs, in native JSON and in HAR (_tonearmParts, which HAR readers ignore)")
    func parts() throws {
        let track = Self.track("0123456789", contentType: "application/octet-stream", parts: [(0, 4), (250, 6)])
        let text = try Self.native(track)
        #expect(text.contains(#""parts""#))
        let loaded = try NativeFormat.decode(Array(text.utf8)).tracks[0]
        #expect(loaded == track)

        let har = try HARFormat.encode(Cassette(tracks: [track]))
        #expect(String(decoding: har, as: UTF8.self).contains("_tonearmParts"))
        #expect(try HARFormat.decode(har).cassette.tracks[0].pacing == track.pacing)
    }

    @Test("A loader refuses events or parts whose times go back, and parts that do not add up to the body, naming the track and the value")
    func refusals() throws {
        let backwards = Self.track("abcdef", contentType: "application/octet-stream", parts: [(300, 3), (100, 3)])
        var text = try Self.native(backwards)
        // The writer keeps what it is given; a hand edit or another tool can write times that go back.
        #expect(throws: CassetteError.self) { try NativeFormat.decode(Array(text.utf8), file: "c.json") }
        do {
            _ = try NativeFormat.decode(Array(text.utf8), file: "c.json")
        } catch {
            #expect(error.description.contains("tracks[0]"))
            #expect(error.description.contains("go back in time"))
        }
        text = text.replacingOccurrences(of: "[300, 3]", with: "[0, 3]").replacingOccurrences(of: "[100, 3]", with: "[100, 2]")
        do {
            _ = try NativeFormat.decode(Array(text.utf8), file: "c.json")
            Issue.record("parts of 5 bytes for a 6-byte body loaded")
        } catch {
            #expect(error.description.contains("6-byte body"))
        }
        let events = #"{"formatVersion": 1, "tracks": [{"request": {"method": "GET", "url": "https://a.example/s"}, "response": {"status": 200, "events": [{"at": 50, "data": "a"}, {"at": 10, "data": "b"}]}}]}"#
        do {
            _ = try NativeFormat.decode(Array(events.utf8), file: "e.json")
            Issue.record("events going back in time loaded")
        } catch {
            #expect(error.description.contains("tracks[0]"))
            #expect(error.description.contains("events go back in time"))
        }
    }

    @Test("Pacing gives every byte once whatever the body's length (a redacted body keeps its parts' times), and a dribble spreads evenly")
    func slices() {
        let pacing = BodyPacing(parts: [.init(offset: .zero, byteCount: 3), .init(offset: .milliseconds(10), byteCount: 3)])
        #expect(pacing.slices(ofBodyCount: 6).map(\.range) == [0..<3, 3..<6])
        #expect(pacing.slices(ofBodyCount: 4).map(\.range) == [0..<3, 3..<4])
        #expect(pacing.slices(ofBodyCount: 2).map(\.range) == [0..<2])
        #expect(pacing.slices(ofBodyCount: 9).map(\.range) == [0..<3, 3..<9])
        #expect(BodyPacing(parts: []).slices(ofBodyCount: 5).map(\.range) == [0..<5])
        let dribble = BodyPacing.evenly(byteCount: 7, pieces: 3, over: .milliseconds(300))
        #expect(dribble.parts.map(\.byteCount) == [3, 3, 1])
        #expect(dribble.parts.map(\.offset) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(StreamPacing("0.5")?.apply(to: pacing)?.parts.map(\.offset) == [.zero, .milliseconds(5)])
        #expect(StreamPacing("off")?.apply(to: pacing) == nil)
        #expect(StreamPacing("-1") == nil)
        #expect(StreamPacing("recorded") == .recorded)
    }
}
