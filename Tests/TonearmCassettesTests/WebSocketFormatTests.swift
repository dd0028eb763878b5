import Foundation
import Testing
import Tonearm
import TonearmCassettes

/// How cassettes keep a WebSocket conversation (``Track/webSocket``): readably in the native format,
/// in HAR as Chrome's devtools write it, byte for byte; and what a loader refuses.
@Suite("WebSockets in cassettes")
struct WebSocketFormatTests {
    private static let track = Track(
        request: Request(
            url: "https://chat.example.com/socket",
            headers: [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade"), HeaderField("Sec-WebSocket-Version", "13")]),
        response: Response(status: 101, headers: [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade")]),
        webSocket: WebSocketConversation(
            messages: [
                .text(.server, "welcome", at: .milliseconds(50)),
                .text(.client, #"{"op":"ask","q":"hi"}"#, at: .seconds(1)),
                .text(.server, "{not json", at: .milliseconds(1_200)),
                .binary(.server, [0, 1, 0xFF], at: .milliseconds(1_500)),
            ],
            close: WebSocketConversation.Close(.client, code: 1000, reason: "done", offset: .seconds(2))))

    private static func native(_ track: Track) throws -> String {
        String(decoding: try NativeFormat.encode(Cassette(tracks: [track])), as: UTF8.self)
    }

    @Test("The native format keeps each message with its time, sender and payload (JSON text as JSON, other text as text, binary as base64) and the close; it loads back equal and saves to the same bytes")
    func nativeRoundTrip() throws {
        let text = try Self.native(Self.track)
        #expect(text.contains(#""webSocket""#))
        #expect(text.contains(#""from": "client""#))
        #expect(text.contains("\"json\": {\n"))
        #expect(text.contains(#""text": "{not json""#))
        #expect(text.contains(#""base64": "AAH/""#))
        #expect(text.contains(#""reason": "done""#))
        let loaded = try NativeFormat.decode(Array(text.utf8)).tracks[0]
        #expect(loaded == Self.track)
        #expect(try Self.native(loaded) == text)
    }

    @Test("HAR keeps the conversation as Chrome's _webSocketMessages (send/receive, seconds since 1970, opcode, data) and the close in _tonearmWebSocketClose; it loads back equal")
    func harRoundTrip() throws {
        let recorded = CassetteEntry(Self.track, recordedAt: Date(timeIntervalSince1970: 1_790_000_000))
        let har = try HARFormat.encode(Cassette(entries: [recorded]))
        let text = String(decoding: har, as: UTF8.self)
        #expect(text.contains(#""_webSocketMessages""#))
        #expect(text.contains(#""type": "send""#))
        #expect(text.contains(#""time": 1790000001.000"#))
        #expect(try HARFormat.decode(har).cassette.tracks[0].webSocket == Self.track.webSocket)
    }

    @Test("A HAR entry as Chrome writes a socket (no close, text and binary frames, times in seconds) loads as a conversation timed from startedDateTime, its wss:// URL as the https:// one the handshake went to")
    func chromeShapedHAR() throws {
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{
              "startedDateTime": "2026-11-27T10:00:00.000Z", "time": 12, "_resourceType": "websocket",
              "request": {"method": "GET", "url": "wss://echo.example.com/", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Upgrade", "value": "websocket"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Upgrade", "value": "websocket"}], "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"},
                "redirectURL": "", "headersSize": -1, "bodySize": 0},
              "cache": {}, "timings": {"send": 0, "wait": 12, "receive": 0},
              "_webSocketMessages": [
                {"type": "send", "time": 1795773600.25, "opcode": 1, "data": "ping me"},
                {"type": "receive", "time": 1795773600.5, "opcode": 1, "data": "ping me"},
                {"type": "receive", "time": 1795773601.125, "opcode": 2, "data": "AQI="}
              ]}]}}
            """
        let track = try HARFormat.decode(Array(har.utf8)).cassette.tracks[0]
        #expect(track.request.url == "https://echo.example.com/")
        #expect(track.webSocket == WebSocketConversation(messages: [
            .text(.client, "ping me", at: .milliseconds(250)),
            .text(.server, "ping me", at: .milliseconds(500)),
            .binary(.server, [1, 2], at: .milliseconds(1_125)),
        ]))
    }

    @Test("A HAR as Playwright records it (times in milliseconds since 1970, no close) reads with the socket's real spacing")
    func playwrightHAR() throws {
        // The shape Playwright 1.65's recordHar writes (checked against a HAR it recorded from Chromium):
        // the same members as Chrome's, the time in milliseconds.
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.65.2"}, "entries": [{
              "startedDateTime": "2026-11-28T01:03:18.417Z", "time": 38.14, "_resourceType": "websocket",
              "request": {"method": "GET", "url": "ws://127.0.0.1:39057/chat", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Upgrade", "value": "websocket"}], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 101, "statusText": "Switching Protocols", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Upgrade", "value": "websocket"}], "cookies": [], "content": {"size": -1, "mimeType": "x-unknown"},
                "redirectURL": "", "headersSize": -1, "bodySize": 0},
              "cache": {}, "timings": {"send": -1, "wait": -1, "receive": -1},
              "_webSocketMessages": [
                {"type": "receive", "time": 1795827798484.074, "opcode": 1, "data": "welcome"},
                {"type": "send", "time": 1795827798484.3828, "opcode": 1, "data": "hi"},
                {"type": "receive", "time": 1795827798512.3298, "opcode": 1, "data": "echo: hi"},
                {"type": "send", "time": 1795827798512.542, "opcode": 2, "data": "AAEC"}
              ]}]}}
            """
        let track = try HARFormat.decode(Array(har.utf8)).cassette.tracks[0]
        #expect(track.request.url == "http://127.0.0.1:39057/chat")
        // Counted from startedDateTime (…18.417): welcome 67 ms after it, the echo 28 ms after the question.
        #expect(track.webSocket == WebSocketConversation(messages: [
            .text(.server, "welcome", at: .milliseconds(67)),
            .text(.client, "hi", at: .milliseconds(67)),
            .text(.server, "echo: hi", at: .milliseconds(95)),
            .binary(.client, [0, 1, 2], at: .milliseconds(96)),
        ]))
    }

    @Test("A loader refuses messages whose times go back, an unknown sender and a close code no frame may carry, naming the track and the value")
    func refusals() throws {
        let text = try Self.native(Self.track)
        let cases = [
            (text.replacingOccurrences(of: "\"at\": 1500", with: "\"at\": 10"), "go back in time"),
            (text.replacingOccurrences(of: #""from": "client""#, with: #""from": "browser""#), "\"browser\""),
            (text.replacingOccurrences(of: "\"code\": 1000", with: "\"code\": 1006"), "1006"),
        ]
        for (edited, words) in cases {
            #expect(edited != text)
            do {
                _ = try NativeFormat.decode(Array(edited.utf8), file: "c.json")
                Issue.record("loaded: \(words)")
            } catch {
                #expect(error.description.contains("tracks[0].webSocket"), "\(error)")
                #expect(error.description.contains(words), "\(error)")
            }
        }
    }
}
