import Foundation
import Testing
import Tonearm
import TonearmCassettes
@testable import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// A replayed answer is encoded on its first use and written from those bytes after: what every later
/// client, and the journal, sees must be what the track says, however the request is framed.
@Suite("Server: replayed answers kept encoded")
struct KeptAnswerTests {
    private static let source = JournalEntry.Source(kind: .track, detail: "a track")
    private static let json = [HeaderField("Content-Type", "application/json"), HeaderField("X-Kept", "yes")]

    /// A cassette of small tracks (kept packed by the index) and one large one (kept as a value).
    private static func cassette(in folder: TemporaryFolder) throws -> URL {
        let cassette = folder.file("kept.json")
        let large = String(repeating: "x", count: 4000)
        let tracks = [
            Track(request: Request(url: "https://api.example.com/a"), response: Response(status: 200, headers: json, body: #"{"a":1}"#)),
            Track(request: Request(url: "https://api.example.com/gone"), response: Response(status: 410, body: "gone")),
            Track(request: Request(url: "https://api.example.com/large"), response: Response(status: 200, headers: json, body: large)),
        ]
        try CassetteFile.save(Cassette(tracks: tracks), to: cassette, format: .native)
        return cassette
    }

    @Test("Later answers are byte for byte the first; HTTP/1.0 and closing requests after a kept answer get their own framing")
    func keptAnswersAreWrittenAsFirstEncoded() async throws {
        let folder = try TemporaryFolder()
        let server = try await TonearmServer.start(quietConfiguration(cassette: try Self.cassette(in: folder), mode: .never))
        let connection = try RawConnection(port: server.port)
        let get = "GET /api.example.com/a HTTP/1.1\r\nHost: x\r\n\r\n"
        connection.send(
            get + get + get
                + "GET /api.example.com/gone HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api.example.com/gone HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"
                + "GET /api.example.com/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (text, closed) = try await connection.readUntilClosed()
        try await server.stop()
        #expect(closed)
        let a = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Kept: yes\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
        let expected = [
            a, a, a,
            "HTTP/1.1 410 Gone\r\nContent-Length: 4\r\n\r\ngone",
            "HTTP/1.0 410 Gone\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\ngone",
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Kept: yes\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{\"a\":1}",
        ]
        #expect(text == expected.joined())
    }

    @Test("The journal shows the track's response for answers written from kept bytes, before and after the cassette is switched")
    func journalOfKeptAnswers() async throws {
        let folder = try TemporaryFolder()
        let server = try await TonearmServer.start(quietConfiguration(cassette: try Self.cassette(in: folder), mode: .never))
        let connection = try RawConnection(port: server.port)
        let paths = ["a", "large", "a", "large", "gone"]
        connection.send(
            paths.map { "GET /api.example.com/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
                + "GET /api.example.com/gone HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = try await connection.readUntilClosed()
        let expected = [
            Response(status: 200, headers: Self.json, body: #"{"a":1}"#),
            Response(status: 200, headers: Self.json, body: String(repeating: "x", count: 4000)),
            Response(status: 410, body: "gone"),
        ]
        let byPath = ["a": expected[0], "large": expected[1], "gone": expected[2]]
        let journaled = server.journal
        #expect(journaled.map(\.response) == (paths + ["gone"]).map { byPath[$0] })
        #expect(journaled.allSatisfy { $0.source.kind == .track })
        // A kept answer names its track as the answer it was kept from did.
        #expect(journaled.map(\.source.detail) == ["track #0", "track #2", "track #0", "track #2", "track #1", "track #1"])

        // The entries outlive the cassette they were answered from, and stop holding its tracks.
        try server.load(cassette: nil)
        let afterSwitch = server.journal
        #expect(afterSwitch.map(\.response) == journaled.map(\.response))
        #expect(afterSwitch.allSatisfy { if case .response = $0.storedResponse { true } else { false } })
        try await server.stop()
    }

    @Test("The cache keeps each answer once, finds loaded tracks and rules by position and later ones by key, and stops at its byte cap")
    func cacheBounds() {
        let answers = EncodedResponseCache(trackCount: 2, ruleCount: 1)
        func keep(_ source: Hit.Source, _ text: String) -> String? {
            let hit = Hit(track: Track(request: Request(url: "https://a.example/"), response: Response(status: 200, body: text)), source: source)
            return answers.slot(for: hit, delay: nil, source: Self.source)?.buffer { .init(string: text) }.map { String(buffer: $0) }
        }
        #expect(answers.kept(for: .track(position: 1)) == nil)
        #expect(keep(.track(position: 1), "first") == "first")
        // Two connections that both met the answer before it was kept: the first encoding is the one kept.
        #expect(keep(.track(position: 1), "second") == "second")
        #expect(answers.kept(for: .track(position: 1)).map { String(buffer: $0.bytes) } == "first")
        // A track added after loading (beyond the table), a rule, and a custom strategy's answer, never kept.
        #expect(keep(.track(position: 7), "added") == "added")
        #expect(answers.kept(for: .track(position: 7)).map { String(buffer: $0.bytes) } == "added")
        #expect(keep(.rule(name: "r", position: 0), "rule") == "rule")
        #expect(answers.kept(for: .rule(name: "r", position: 0)).map { String(buffer: $0.bytes) } == "rule")
        #expect(answers.kept(for: .track(position: 0)) == nil)
        #expect(keep(.custom("mine"), "custom") == nil)

        let large = EncodedResponseCache(trackCount: 4, ruleCount: 0)
        let tooLarge = String(repeating: "x", count: EncodedResponseCache.maximumAnswerBytes + 1)
        let hit = Hit(track: Track(request: Request(url: "https://a.example/"), response: Response(status: 200, body: tooLarge)), source: .track(position: 0))
        #expect(large.slot(for: hit, delay: nil, source: Self.source)?.buffer { .init(string: tooLarge) }?.readableBytes == tooLarge.utf8.count)
        #expect(large.kept(for: .track(position: 0)) == nil)
    }
}
