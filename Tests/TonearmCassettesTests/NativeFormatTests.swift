import Foundation
import PropertyBased
import Testing
import Tonearm
@testable import TonearmCassettes

@Suite("Native cassette format")
struct NativeFormatTests {
    static let sample = Cassette(name: "sample", strategy: .fifo, entries: [
        CassetteEntry(
            Track(
                request: Request(method: "POST", url: "https://api.example.com/users?b=2&a=1",
                                 headers: [HeaderField("Content-Type", "application/json")], body: #"{"id":12345678901234567890,"name":"Zoë \/ \u00e9"}"#),
                response: Response(status: 201, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Set-Cookie", "a=1"), HeaderField("Set-Cookie", "b=2")], body: #"{"ok":true,"list":[1,2.50,[]],"empty":{}}"#),
                name: "create user", delay: .milliseconds(120)),
            recordedAt: Date(timeIntervalSince1970: 1_705_664_469.123), hints: TrackHints(sequence: "signup")),
        CassetteEntry(Track(request: Request(url: "https://api.example.com/pretty"), response: Response(
            headers: [HeaderField("Content-Type", "application/json")], body: "{\n  \"spaced\": true\n}\n"))),
        CassetteEntry(Track(request: Request(url: "https://api.example.com/logo.png"), response: Response(body: [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]))),
        CassetteEntry(Track(request: Request(url: "https://api.example.com/offline"), outcome: .transportError(.notConnectedToInternet))),
        CassetteEntry(Track(request: Request(url: "https://api.example.com/odd"), outcome: .transportError(.other(code: -1005, message: "lost \"it\"")))),
    ])

    @Test("save, load, save gives identical bytes, and loading gives the same cassette")
    func roundTrip() throws {
        let bytes = try NativeFormat.encode(Self.sample)
        let loaded = try NativeFormat.decode(bytes, file: "sample.json")
        #expect(loaded == Self.sample)
        #expect(try NativeFormat.encode(loaded) == bytes)
    }

    @Test("bodies are stored as JSON values, text or base64 with explicit markers")
    func bodyStorage() throws {
        let text = String(decoding: try NativeFormat.encode(Self.sample), as: UTF8.self)
        #expect(text.contains("\"json\": {\n"))
        #expect(text.contains("\"id\": 12345678901234567890"))  // big integers kept digit for digit
        #expect(text.contains("\"text\": \"{\\n  \\\"spaced\\\": true\\n}\\n\""))  // pretty JSON kept byte for byte as text
        #expect(text.contains("\"base64\": \"iVBORwD/\""))
        #expect(text.contains("\"transportError\": \"notConnectedToInternet\""))
        #expect(text.contains("[\"Set-Cookie\", \"a=1\"],\n"))
        #expect(text.hasPrefix("{\n  \"formatVersion\": 1,\n"))
        #expect(text.contains("\"recordedAt\": \"2024-01-19T11:41:09.123Z\""))
    }

    @Test("random tracks survive a round trip", .timeLimit(.minutes(1)))
    func randomRoundTrip() async {
        let byteGen = Gen.int(in: 0...255).map { UInt8($0) }.array(of: 0...40)
        let textGen = Gen.int(in: 0...5).map { ["", "a", "é/\"\\", "line\nbreak\ttab", "{\"a\":1}", "🎵"][$0] }
        await propertyCheck(count: 200, input: byteGen, textGen, Gen.int(in: 100...599), Gen.bool) { bytes, text, status, asJSON in
            let contentType = asJSON ? "application/json" : "application/octet-stream"
            let track = Track(
                request: Request(method: "PUT", url: "https://h.example/\(status)", headers: [HeaderField("X-Text", text)], body: bytes),
                response: Response(status: status, headers: [HeaderField("Content-Type", contentType)], body: Array(text.utf8) + bytes),
                name: text.isEmpty ? nil : text)
            let cassette = Cassette(tracks: [track])
            let encoded = try NativeFormat.encode(cassette)
            let decoded = try? NativeFormat.decode(encoded)
            #expect(decoded == cassette)
            #expect(try decoded.map { (cassette) throws(CassetteError) in try NativeFormat.encode(cassette) } == encoded)
        }
    }

    @Test("errors name the file, the line and column, the JSON path and what was expected")
    func typeErrors() throws {
        let json = """
            {
              "formatVersion": 1,
              "tracks": [
                {"request": {"method": "GET", "url": 42}, "response": {"status": 200}}
              ]
            }
            """
        let error = try #require(throws: CassetteError.self) { try NativeFormat.decode(Array(json.utf8), file: "broken.json") }
        #expect(error.file == "broken.json")
        #expect(error.path == "$.tracks[0].request.url")
        #expect(error.line == 4)
        #expect(error.column == 42)
        #expect(error.expected == "a string")
        #expect(error.description == "broken.json:4:42: at $.tracks[0].request.url: expected a string, found a number")
    }

    @Test("syntax errors give the position and what was expected")
    func syntaxErrors() throws {
        let error = try #require(throws: CassetteError.self) {
            try NativeFormat.decode(Array("{\n  \"formatVersion\": 1,\n  \"tracks\": [}\n".utf8), file: "cut.json")
        }
        #expect(error.line == 3)
        #expect(error.column == 14)
        #expect(error.expected.contains("JSON value"))
    }

    @Test("a newer format version is refused with a clear message")
    func newerVersion() throws {
        let error = try #require(throws: CassetteError.self) { try NativeFormat.decode(Array(#"{"formatVersion": 2, "tracks": []}"#.utf8)) }
        #expect(error.path == "$.formatVersion")
        #expect(error.description.contains("formatVersion 1"))
    }

    @Test("ISO 8601 times are written to the millisecond and read back, offsets applied")
    func timestamps() throws {
        let date = try #require(Timestamp.parseISO8601("2023-07-25T10:42:01.726810+02:00"))
        #expect(Timestamp.iso8601(date) == "2023-07-25T08:42:01.727Z")
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        #expect(Timestamp.parseRFC1123("Sun, 10 Aug 2025 14:27:18 GMT").map(Timestamp.iso8601) == "2025-08-10T14:27:18.000Z")
    }
}
