import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// A replayed conversation as a browser's `WebSocket` meets it (Chromium driven by Playwright, as the
/// inspector's browser tests are); and a `wss://` socket opened through the server as a proxy, inside an
/// intercepted `CONNECT` tunnel, by a real client.
@Suite("WebSockets: a real browser, and a proxy's tunnel")
struct WebSocketBrowserTests {
    static let conversation = Track(
        request: Request(url: "https://chat.example.com/socket"), response: Response(status: 101),
        webSocket: WebSocketConversation(
            messages: [
                .text(.server, "welcome", at: .milliseconds(20)),
                .text(.client, #"{"op":"ask","q":"hi"}"#, at: .milliseconds(100)),
                .text(.server, "answer", at: .milliseconds(150)),
                .binary(.server, [1, 2, 3], at: .milliseconds(450)),
            ],
            close: WebSocketConversation.Close(.server, code: 4000, reason: "done", offset: .milliseconds(500))))

    @Test(
        "A browser's WebSocket gets the replayed conversation: its own message matched in canonical JSON, the answers in order and paced, binary as bytes, the recorded close",
        .enabled(if: InspectorBrowser.available, Comment(rawValue: InspectorBrowser.missingMessage)),
        .timeLimit(.minutes(2)))
    func browser() async throws {
        let folder = try TemporaryFolder()
        let server = try await TonearmServer.start(quietConfiguration(cassette: try savedCassette([Self.conversation], in: folder)))
        let run = try await ProcessRun.run(
            try #require(InspectorBrowser.python),
            [
                packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/websocket_browser.py").path,
                "ws://127.0.0.1:\(server.port)/chat.example.com/socket", try #require(InspectorBrowser.chromium),
            ])
        try await server.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("checks passed"), "\(run.output)")
    }

    @Test(
        "A HAR that Playwright recorded from Chromium (times in milliseconds) loads with the socket's real spacing and replays it with the upstream gone",
        .enabled(if: InspectorBrowser.available && WebSocketClient.available, Comment(rawValue: InspectorBrowser.missingMessage)),
        .timeLimit(.minutes(2)))
    func playwrightHAR() async throws {
        let folder = try TemporaryFolder()
        let har = folder.file("playwright.har")
        let upstream = try await PythonServer("websocket_upstream.py", python: try #require(WebSocketClient.python))
        let url = "ws://127.0.0.1:\(upstream.port)/chat"
        let recorded = try await ProcessRun.run(
            try #require(InspectorBrowser.python),
            [packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/websocket_har_recording.py").path, url, try #require(InspectorBrowser.chromium), har.path])
        try await upstream.stop()
        #expect(recorded.output.contains("closed 4000"), "\(recorded.output)\n\(recorded.errors)")

        let track = try #require(try CassetteFile.load(har).cassette.tracks.first { $0.webSocket != nil })
        let messages = try #require(track.webSocket?.messages)
        #expect(messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["welcome", "hi", "echo: hi", "\u{0}\u{1}\u{2}", "\u{0}\u{1}\u{2}", "bye"])
        // The whole conversation took well under a minute (read as seconds, Playwright's times were
        // thousands of years apart from the entry's start).
        #expect(try #require(messages.last?.offset) < .seconds(60), "\(messages.map { $0.offset })")

        let server = try await TonearmServer.start(quietConfiguration(cassette: har))
        let events = try await WebSocketClient.run(
            "ws://127.0.0.1:\(server.port)/127.0.0.1:\(upstream.port)/chat",
            [["recv": true], ["send": "hi"], ["recv": true], ["sendBinary": "AAEC"], ["recv": true], ["send": "bye"], ["close": 1000]])
        try await server.stop()
        try #require(events.count >= 4, "\(events)")
        #expect(events[1]["recv"] as? String == "welcome")
        #expect(events[2]["recv"] as? String == "echo: hi")
        #expect(events[3]["recvBinary"] as? String == "AAEC")
    }

    @Test(
        "A wss:// socket opened through the server as an HTTPS proxy (CONNECT, intercepted with the local CA) replays like any other",
        .enabled(if: WebSocketClient.available || WebSocketClient.required, Comment(rawValue: WebSocketClient.missingMessage)))
    func throughInterceptedTunnel() async throws {
        let folder = try TemporaryFolder()
        var configuration = quietConfiguration(cassette: try savedCassette([Self.conversation], in: folder))
        configuration.tls.certificateAuthority = try LocalCertificateAuthority.loadOrCreate(in: folder.url.appendingPathComponent("ca"))
        configuration.tls.interceptsHTTPS = true
        let server = try await TonearmServer.start(configuration)
        let events = try await WebSocketClient.run(
            "wss://chat.example.com/socket", [["recv": true], ["send": #"{"q":"hi","op":"ask"}"#], ["recv": true], ["recv": true], ["recv": true]],
            environment: ["HTTPS_PROXY": "http://127.0.0.1:\(server.port)", "SSL_CERT_FILE": try #require(server.certificateAuthorityFile?.path)])
        try await server.stop()
        try #require(events.count >= 5, "\(events)")
        #expect(events[1]["recv"] as? String == "welcome")
        #expect(events[2]["recv"] as? String == "answer")
        #expect(events[3]["recvBinary"] as? String == "AQID")
        #expect(events[4]["closed"] as? Int == 4000)
    }
}
