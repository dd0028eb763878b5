import Foundation
import Testing
import Tonearm
import TonearmCassettes
@testable import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// Replaying a recorded WebSocket conversation through the server, with a real client (PyPI
/// `websockets`): the handshake answered, the server's messages at their recorded times, the client's
/// matched in canonical form, misses closed and reported, the protocol's rules kept.
@Suite("WebSockets: replay through the server", .enabled(if: WebSocketClient.available || WebSocketClient.required, Comment(rawValue: WebSocketClient.missingMessage)))
struct WebSocketReplayServerTests {
    static let handshake = [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade"), HeaderField("Sec-WebSocket-Version", "13")]

    /// A chat: a greeting at 50 ms; the client asks at 1 s; replies at 1.3 s (text) and 1.5 s (binary).
    static let chat = Track(
        request: Request(url: "https://chat.example.com/socket", headers: handshake),
        response: Response(status: 101, headers: [HeaderField("Upgrade", "websocket"), HeaderField("Sec-WebSocket-Accept", "recorded-for-another-key")]),
        webSocket: WebSocketConversation(
            messages: [
                .text(.server, "welcome", at: .milliseconds(50)),
                .text(.client, #"{"op":"ask","q":"hi","id":7}"#, at: .seconds(1)),
                .text(.server, "thinking", at: .milliseconds(1_300)),
                .binary(.server, [1, 2, 3], at: .milliseconds(1_500)),
            ],
            close: WebSocketConversation.Close(.client, code: 1000, offset: .seconds(2))))

    private func server(_ tracks: [Track] = [chat], configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> (TonearmServer, TemporaryFolder) {
        let folder = try TemporaryFolder()
        var configuration = quietConfiguration(cassette: try savedCassette(tracks, in: folder))
        configure(&configuration)
        return (try await TonearmServer.start(configuration), folder)
    }

    private func socketURL(_ server: TonearmServer) -> String {
        "ws://127.0.0.1:\(server.port)/chat.example.com/socket"
    }

    @Test("A recorded conversation replays: the handshake is accepted for the client's own key, the server's messages come at their recorded distance from what they answered, a JSON message matches with its members in another order, the close is answered")
    func replays() async throws {
        let (server, _) = try await server()
        let events = try await WebSocketClient.run(socketURL(server), [
            ["recv": true], ["send": #"{"id": 7, "q": "hi", "op": "ask"}"#], ["recv": true], ["recv": true], ["close": 1000],
        ])
        try await server.stop()
        try #require(events.count >= 5, "\(events)")
        #expect(events.first?["opened"] as? Bool == true)
        #expect(events[1]["recv"] as? String == "welcome")
        #expect(events[2]["recv"] as? String == "thinking")
        #expect(events[3]["recvBinary"] as? String == "AQID")
        #expect(events[4]["closed"] as? Int == 1000)
        // The replies come no sooner than their recorded distance (300 and 500 ms) from the question, which
        // the client sent once greeted: so no sooner than that after the greeting.
        let greeting = try #require(events[1]["at"] as? Double), thinking = try #require(events[2]["at"] as? Double)
        let binary = try #require(events[3]["at"] as? Double)
        #expect(thinking - greeting >= 0.299, "\(events)")
        #expect(binary - greeting >= 0.499, "\(events)")
        #expect(server.journal.first?.response?.status == 101)
        #expect(server.misses.isEmpty)

        // The handshake's journal entry is completed with what was exchanged: the client's message as it
        // sent it, the messages played, the client's close.
        let conversation = try #require(server.journal.first?.webSocket, "the handshake's entry has no conversation")
        #expect(conversation.messages.map(\.sender) == [.server, .client, .server, .server])
        #expect(conversation.messages[1].payload == Array(#"{"id": 7, "q": "hi", "op": "ask"}"#.utf8))
        #expect(conversation.messages[3].payload == [1, 2, 3])
        #expect(conversation.problem == nil, "times from the upgrade, in order")
        #expect(conversation.close?.sender == .client && conversation.close?.code == 1000, "\(String(describing: conversation.close))")
        // The journal's HAR export carries it as Chrome's _webSocketMessages, readable back.
        let folder = try TemporaryFolder()
        let har = folder.file("journal.har")
        try Data(try server.journalHAR()).write(to: har)
        let exported = try #require(try CassetteFile.load(har).cassette.tracks.first)
        #expect(exported.webSocket?.messages.map(\.payload) == conversation.messages.map(\.payload))
    }

    @Test("The inspector lists a replayed socket with its message count once it ends, and its detail shows each message with its time, sender and content")
    func inspectorShowsTheConversation() async throws {
        let (server, _) = try await server()
        let inspector = try #require(server.inspectorURL).absoluteString
        _ = try await WebSocketClient.run(socketURL(server), [
            ["recv": true], ["send": #"{"op":"ask","q":"hi","id":7}"#], ["recv": true], ["recv": true], ["close": 1000],
        ])
        // The server completes the entry as the connection ends, just after the client saw the close.
        var detail: [String: Any] = [:]
        for _ in 0..<250 {
            let answer = try await TestClient.send(inspector + "api/exchanges/0")
            detail = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            if detail["webSocket"] != nil { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let socket = try #require(detail["webSocket"] as? [String: Any], "\(detail)")
        let messages = try #require(socket["messages"] as? [[String: Any]])
        #expect(messages.map { $0["from"] as? String } == ["server", "client", "server", "server"])
        #expect(messages[0]["text"] as? String == "welcome")
        #expect(messages[3]["hex"] as? String != nil, "a binary message is a hex dump")
        #expect((messages[2]["ms"] as? Double ?? 0) >= (messages[1]["ms"] as? Double ?? .infinity) + 299)
        #expect((socket["close"] as? [String: Any])?["code"] as? Int == 1000)
        let stream = try #require(detail["stream"] as? [String: Any])
        #expect(stream["messages"] as? Int == 4)
        let list = try JSONSerialization.jsonObject(with: Data(try await TestClient.send(inspector + "api/exchanges").body)) as? [String: Any]
        let summary = try #require((list?["entries"] as? [[String: Any]])?.first)
        #expect((summary["stream"] as? [String: Any])?["close"] as? Int == 1000)
        try await server.stop()
    }

    @Test("A client message that is not the one recorded next closes the socket with 1008 and a reason, and the journal has the miss with the message's differences")
    func missCloses() async throws {
        let (server, _) = try await server()
        let events = try await WebSocketClient.run(socketURL(server), [
            ["recv": true], ["send": #"{"op":"ask","q":"bye","id":7}"#], ["recv": true],
        ])
        try await server.stop()
        let closed = try #require(events.first { $0["closed"] != nil })
        #expect(closed["closed"] as? Int == 1008, "\(events)")
        #expect((closed["reason"] as? String)?.contains("client message 1") == true, "\(events)")
        let miss = try #require(server.misses.first)
        #expect(miss.description.contains("client message 1 is not the one recorded next"), "\(miss)")
        #expect(miss.nearest.first?.differences.map(\.description) == [#"body changed at /q: "hi" -> "bye""#])
        // The handshake's entry shows the conversation up to the message that missed, and the 1008.
        let conversation = try #require(server.journal.first { $0.response?.status == 101 }?.webSocket)
        #expect(conversation.messages.map { String(decoding: $0.payload, as: UTF8.self) } == ["welcome", #"{"op":"ask","q":"bye","id":7}"#])
        #expect(conversation.close?.sender == .server && conversation.close?.code == 1008, "\(String(describing: conversation.close))")
    }

    @Test("Pings are answered, a fragmented message is reassembled before it is matched, and keyed order answers messages sent out of order")
    func pingsFragmentsAndKeyedOrder() async throws {
        let lookups = Track(
            request: Request(url: "https://chat.example.com/socket", headers: Self.handshake), response: Response(status: 101),
            webSocket: WebSocketConversation(messages: [
                .text(.client, "get a", at: .milliseconds(10)), .text(.server, "A", at: .milliseconds(20)),
                .text(.client, "get b", at: .milliseconds(30)), .text(.server, "B", at: .milliseconds(40)),
            ]))
        let (server, _) = try await server([lookups]) { $0.webSocketOrder = .keyed }
        let events = try await WebSocketClient.run(socketURL(server), [
            ["ping": true], ["sendFragmented": ["get ", "b"]], ["recv": true], ["send": "get a"], ["recv": true], ["close": 1000],
        ])
        try await server.stop()
        try #require(events.count >= 4, "\(events)")
        #expect(events[1]["pong"] != nil, "\(events)")
        #expect(events[2]["recv"] as? String == "B", "\(events)")
        #expect(events[3]["recv"] as? String == "A", "\(events)")
    }

    @Test("A message over the size limit is closed with 1009; a plain GET of a WebSocket track is told to upgrade (426); a malformed handshake is 400")
    func limitsAndRefusals() async throws {
        let (server, _) = try await server { $0.limits.maximumBodySize = 1_000 }
        let events = try await WebSocketClient.run(socketURL(server), [
            ["recv": true], ["send": String(repeating: "x", count: 5_000)], ["recv": true],
        ])
        #expect(events.contains { $0["closed"] as? Int == 1009 }, "\(events)")
        let plain = try await TestClient.send(server.baseURL.absoluteString + "/chat.example.com/socket")
        #expect(plain.status == 426)
        let connection = try RawConnection(port: server.port)
        connection.send("GET /chat.example.com/socket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 8\r\n\r\n")
        let answer = try await connection.read(until: "\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
        try await server.stop()
    }

    @Test("A stopping server closes its open sockets with 1001")
    func stoppingCloses() async throws {
        let endless = Track(
            request: Request(url: "https://chat.example.com/socket", headers: Self.handshake), response: Response(status: 101),
            webSocket: WebSocketConversation(messages: [.text(.server, "hello", at: .zero), .text(.server, "late", at: .seconds(600))]))
        let (server, _) = try await server([endless])
        let folder = try TemporaryFolder()
        let reached = folder.file("reached")
        async let events = WebSocketClient.run(socketURL(server), [["recv": true], ["signal": reached.path], ["recv": true, "timeout": 60]])
        // The client has its first message, then waits: the server stops under it.
        try await WebSocketClient.waitFor(reached)
        try await server.stop()
        let seen = try await events
        #expect(seen.contains { $0["closed"] as? Int == 1001 }, "\(seen)")
    }
}
