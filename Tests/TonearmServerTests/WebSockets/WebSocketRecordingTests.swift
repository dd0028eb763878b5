import Foundation
import Testing
import Tonearm
import TonearmCassettes
@testable import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// Recording a WebSocket through the server: a real upstream (PyPI `websockets`, plain and TLS) relayed
/// message by message to a real client, the conversation saved with its times and close, and replayed
/// with the upstream gone.
@Suite("WebSockets: recording through the server", .enabled(if: WebSocketClient.available || WebSocketClient.required, Comment(rawValue: WebSocketClient.missingMessage)))
struct WebSocketRecordingTests {
    /// The venv's Python runs the upstream (it needs `websockets`).
    private func upstream(_ arguments: [String] = []) async throws -> PythonServer {
        try await PythonServer("websocket_upstream.py", arguments: arguments, python: try #require(WebSocketClient.python))
    }

    private let conversation: [[String: Any]] = [
        ["recv": true], ["send": #"{"op":"ask","q":"hi"}"#], ["recv": true], ["sendBinary": "AAEC"], ["recv": true], ["send": "bye"], ["recv": true],
    ]

    private func checkConversation(_ events: [WebSocketClient.Event]) throws {
        try #require(events.count >= 6, "\(events)")
        #expect(events[1]["recv"] as? String == "welcome", "\(events)")
        #expect(events[2]["recv"] as? String == #"echo: {"op":"ask","q":"hi"}"#, "\(events)")
        #expect(events[3]["recvBinary"] as? String == "AAEC", "\(events)")
        #expect(events[4]["closed"] as? Int == 4000, "\(events)")
        #expect(events[4]["reason"] as? String == "see you", "\(events)")
    }

    @Test("A conversation is relayed both ways while it is recorded, saved with its messages, their senders and times, and the upstream's close; replayed with the upstream gone, the client sees the same")
    func recordThenReplay() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("socket.json")
        let upstream = try await upstream()
        let recorder = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        let url = "ws://127.0.0.1:\(recorder.port)/127.0.0.1:\(upstream.port)/chat"
        try checkConversation(try await WebSocketClient.run(url, conversation))
        try await recorder.stop()
        try await upstream.stop()

        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.response?.status == 101)
        #expect(!track.request.headers.contains { $0.name.lowercased() == "sec-websocket-key" })
        let messages = try #require(track.webSocket?.messages)
        #expect(messages.map(\.sender) == [.server, .client, .server, .client, .server, .client])
        #expect(messages.map(\.kind) == [.text, .text, .text, .binary, .binary, .text])
        #expect(messages[3].payload == [0, 1, 2])
        #expect(track.webSocket?.close == WebSocketConversation.Close(.server, code: 4000, reason: "see you", offset: try #require(track.webSocket?.close?.offset)))
        #expect(try String(contentsOf: cassette, encoding: .utf8).contains(#""from": "client""#))
        // The recorder's journal completed the handshake's entry with the same conversation.
        // (The cassette keeps times to the millisecond, the journal as they were.)
        let journaled = try #require(recorder.journal.first { $0.response?.status == 101 }?.webSocket)
        #expect(journaled.messages.map { [$0.sender.rawValue, $0.kind.rawValue] + $0.payload.map(String.init) } == messages.map { [$0.sender.rawValue, $0.kind.rawValue] + $0.payload.map(String.init) })
        #expect(journaled.close?.code == 4000 && journaled.close?.reason == "see you")

        let replayer = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        try checkConversation(try await WebSocketClient.run("ws://127.0.0.1:\(replayer.port)/127.0.0.1:\(upstream.port)/chat", conversation))
        try await replayer.stop()
    }

    @Test("A JSON message's redacted fields are hidden in the recording, and the replay compares a live message redacted alike, so it still matches")
    func redactedMessages() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("redacted.json")
        let upstream = try await upstream()
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin])
        configuration.redaction = Redaction(jsonFields: [try JSONPointer("/token")])
        let signIn: [[String: Any]] = [["recv": true], ["send": #"{"op":"signIn","token":"s3cret"}"#], ["recv": true], ["send": "bye"], ["recv": true]]
        let recorder = try await TonearmServer.start(configuration)
        let url = "ws://127.0.0.1:\(recorder.port)/127.0.0.1:\(upstream.port)/chat"
        _ = try await WebSocketClient.run(url, signIn)
        try await recorder.stop()
        try await upstream.stop()
        let messages = try #require(try CassetteFile.load(cassette).cassette.tracks.first?.webSocket?.messages)
        let signedIn = try #require(messages.first { $0.sender == .client })
        #expect(String(decoding: signedIn.payload, as: UTF8.self) == #"{"op":"signIn","token":"<redacted>"}"#)

        configuration.mode = .never
        let replayer = try await TonearmServer.start(configuration)
        let events = try await WebSocketClient.run("ws://127.0.0.1:\(replayer.port)/127.0.0.1:\(upstream.port)/chat", signIn)
        try await replayer.stop()
        #expect(replayer.misses.isEmpty, "\(replayer.misses)")
        #expect(events.contains { $0["closed"] as? Int == 4000 }, "\(events)")
    }

    @Test("Stopping the server while a recorded socket is open saves the conversation so far, closed 1001 by tonearm, and tells the client")
    func stoppingKeepsTheConversation() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("open.json"), reached = folder.file("reached")
        let upstream = try await upstream()
        let recorder = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        // An app's socket stays open for as long as the app runs: the recording ends when the test stops the server.
        async let events = WebSocketClient.run(
            "ws://127.0.0.1:\(recorder.port)/127.0.0.1:\(upstream.port)/live",
            [["recv": true], ["send": "hi"], ["recv": true], ["signal": reached.path], ["recv": true, "timeout": 60]])
        try await WebSocketClient.waitFor(reached)
        try await recorder.stop()
        let seen = try await events
        try await upstream.stop()
        #expect(seen.contains { $0["closed"] as? Int == 1001 }, "\(seen)")

        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first, "the open conversation was not saved")
        let messages = try #require(track.webSocket?.messages)
        #expect(messages.map(\.sender) == [.server, .client, .server])
        #expect(messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["welcome", "hi", "echo: hi"])
        let close = try #require(track.webSocket?.close)
        #expect(close.sender == .server && close.code == 1001 && close.reason == "tonearm is stopping", "\(close)")
    }

    @Test("A client using the server as its HTTP proxy for ws:// (a CONNECT to an allowed http host: a plain tunnel) is recorded, then replayed through the proxy with the upstream gone")
    func throughTheProxy() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("proxied.json")
        let upstream = try await upstream()
        let recorder = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        // PyPI websockets opens ws:// through HTTP_PROXY with CONNECT, as browsers do.
        let url = "ws://127.0.0.1:\(upstream.port)/chat"
        try checkConversation(try await WebSocketClient.run(url, conversation, environment: ["HTTP_PROXY": "http://127.0.0.1:\(recorder.port)"]))
        try await recorder.stop()
        try await upstream.stop()
        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.request.url == "http://127.0.0.1:\(upstream.port)/chat")
        #expect(track.webSocket?.messages.count == 6)

        let replayer = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        try checkConversation(try await WebSocketClient.run(url, conversation, environment: ["HTTP_PROXY": "http://127.0.0.1:\(replayer.port)"]))
        try await replayer.stop()
    }

    @Test("A wss upstream (TLS, trusted with --upstream-ca) is recorded the same way")
    func secureUpstream() async throws {
        let folder = try TemporaryFolder()
        let authority = try LocalCertificateAuthority.makeEphemeral(label: "test ws upstream")
        let leaf = try authority.issueLeaf(for: ["localhost", "127.0.0.1"])
        let certificate = folder.file("cert.pem"), key = folder.file("key.pem"), caFile = folder.file("ca.pem")
        try Data(leaf.certificatePEM.utf8).write(to: certificate)
        try Data(leaf.privateKeyPEM.utf8).write(to: key)
        try Data(authority.certificatePEM.utf8).write(to: caFile)
        let upstream = try await upstream([certificate.path, key.path])
        let cassette = folder.file("secure.json")
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: ["https://localhost:\(upstream.port)"])
        configuration.tls.upstreamCertificateAuthorities = [caFile]
        let recorder = try await TonearmServer.start(configuration)
        try checkConversation(try await WebSocketClient.run("ws://127.0.0.1:\(recorder.port)/localhost:\(upstream.port)/chat", conversation))
        try await recorder.stop()
        try await upstream.stop()
        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.request.url == "https://localhost:\(upstream.port)/chat")
        #expect(track.webSocket?.messages.count == 6)
    }

    @Test("An upstream that refuses the upgrade (403) is answered and recorded as an ordinary exchange")
    func refusedUpgrade() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("refused.json")
        let upstream = try await upstream()
        let recorder = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        let connection = try RawConnection(port: recorder.port)
        connection.send(
            "GET /127.0.0.1:\(upstream.port)/refuse HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        let answer = try await connection.read(until: "no sockets here")
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
        try await recorder.stop()
        try await upstream.stop()
        let track = try #require(try CassetteFile.load(cassette).cassette.tracks.first)
        #expect(track.response?.status == 403)
        #expect(track.webSocket == nil)
    }
}
