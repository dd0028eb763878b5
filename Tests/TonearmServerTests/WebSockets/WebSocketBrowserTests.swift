import Foundation
import Testing
import Tonearm
import TonearmServer
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
