import Testing

@testable import Tonearm

/// The replay of a recorded WebSocket conversation, driven with chosen times (no clock, no sockets).
@Suite struct WebSocketReplayTests {
    private typealias Message = WebSocketConversation.Message

    /// A chat: the server greets at 50 ms, the client asks at 1 s, two replies at 1.2 s and 1.5 s, the
    /// client closes at 2 s.
    private let chat = WebSocketConversation(
        messages: [
            .text(.server, "welcome", at: .milliseconds(50)),
            .text(.client, #"{"op":"ask","q":"hi","id":7}"#, at: .seconds(1)),
            .text(.server, "thinking", at: .milliseconds(1_200)),
            .binary(.server, [1, 2, 3], at: .milliseconds(1_500)),
        ],
        close: WebSocketConversation.Close(.client, code: 1000, offset: .seconds(2)))

    @Test func serverMessagesGoAtTheirOffsetsFromWhatTheyAnswered() {
        var replay = WebSocketReplay(conversation: chat)
        #expect(replay.opened(at: .zero) == [])
        #expect(replay.deadline == .milliseconds(50))
        #expect(replay.advance(to: .milliseconds(49)) == [])
        #expect(replay.advance(to: .milliseconds(50)) == [.send(.text, Array("welcome".utf8))])
        #expect(replay.deadline == nil)
        // The client asks 3 s in (later than recorded), members in another order: replies follow it by their recorded gaps.
        #expect(replay.received(.text, Array(#"{"id":7,"q":"hi","op":"ask"}"#.utf8), at: .seconds(3)) == [])
        #expect(replay.deadline == .milliseconds(3_200))
        #expect(replay.advance(to: .milliseconds(3_200)) == [.send(.text, Array("thinking".utf8))])
        #expect(replay.advance(to: .milliseconds(3_500)) == [.send(.binary, [1, 2, 3])])
        #expect(replay.clientClosed(code: 1000, at: .seconds(4)) == [.close(code: 1000, reason: ""), .closeConnection])
        #expect(replay.isClosed)
    }

    @Test func aClientMessageSentEarlyFlushesWhatWasRecordedBeforeIt() {
        var replay = WebSocketReplay(conversation: chat)
        _ = replay.opened(at: .zero)
        let actions = replay.received(.text, Array(#"{"op":"ask","q":"hi","id":7}"#.utf8), at: .milliseconds(10))
        #expect(actions == [.send(.text, Array("welcome".utf8))])
        #expect(replay.deadline == .milliseconds(210))
    }

    @Test func pacingScalesAndOffSendsAtOnce() {
        var half = WebSocketReplay(conversation: chat, pacing: .scaled(0.5)!)
        _ = half.opened(at: .zero)
        #expect(half.deadline == .milliseconds(25))
        var immediate = WebSocketReplay(conversation: chat, pacing: .immediate)
        #expect(immediate.opened(at: .seconds(1)) == [.send(.text, Array("welcome".utf8))])
        #expect(immediate.received(.text, Array(#"{"op":"ask","q":"hi","id":7}"#.utf8), at: .seconds(1)) == [
            .send(.text, Array("thinking".utf8)), .send(.binary, [1, 2, 3]),
        ])
    }

    @Test func aDifferentMessageIsAMissNamingTheDifferenceAndCloses1008() throws {
        var replay = WebSocketReplay(conversation: chat)
        _ = replay.opened(at: .zero)
        let actions = replay.received(.text, Array(#"{"op":"ask","q":"bye","id":7}"#.utf8), at: .seconds(1))
        #expect(actions.count == 2)
        guard case .missed(let miss) = actions.first else {
            Issue.record("no miss in \(actions)")
            return
        }
        #expect(miss.number == 1)
        #expect(miss.nearest.map(\.index) == [1])
        #expect(miss.nearest.first?.differences.map(\.description) == [#"body changed at /q: "hi" -> "bye""#])
        #expect(actions.last == .close(code: 1008, reason: "tonearm: client message 1 is not in the recording"))
        // The closing handshake: the client's echo ends it, or the grace does.
        #expect(replay.received(.text, [0x41], at: .seconds(2)) == [])
        #expect(replay.deadline == .seconds(1) + WebSocketReplay.closeGrace)
        #expect(replay.advance(to: .seconds(6)) == [.closeConnection])
    }

    @Test func ignoredJSONFieldsDoNotMakeAMiss() throws {
        let configuration = MatchingConfiguration(ignoredJSONFields: [try JSONPointer("/id")])
        var replay = WebSocketReplay(conversation: chat, matcher: WebSocketMessageMatcher(configuration))
        _ = replay.opened(at: .zero)
        _ = replay.advance(to: .seconds(1))
        #expect(replay.received(.text, Array(#"{"op":"ask","q":"hi","id":8}"#.utf8), at: .seconds(1)) == [])
        #expect(replay.deadline == .milliseconds(1_200))
    }

    @Test func keyedOrderAnswersEachMessageWithItsOwnReplies() {
        let lookups = WebSocketConversation(messages: [
            .text(.client, "get a", at: .milliseconds(100)),
            .text(.server, "A", at: .milliseconds(110)),
            .text(.client, "get b", at: .milliseconds(200)),
            .text(.server, "B1", at: .milliseconds(220)),
            .text(.server, "B2", at: .milliseconds(230)),
            .text(.client, "get a", at: .milliseconds(300)),
            .text(.server, "A again", at: .milliseconds(305)),
        ])
        var replay = WebSocketReplay(conversation: lookups, order: .keyed, pacing: .immediate)
        _ = replay.opened(at: .zero)
        #expect(replay.received(.text, Array("get b".utf8), at: .zero) == [.send(.text, Array("B1".utf8)), .send(.text, Array("B2".utf8))])
        #expect(replay.received(.text, Array("get a".utf8), at: .zero) == [.send(.text, Array("A".utf8))])
        #expect(replay.received(.text, Array("get a".utf8), at: .zero) == [.send(.text, Array("A again".utf8))])
        // Every recording of "get a" played: the last answers again.
        #expect(replay.received(.text, Array("get a".utf8), at: .zero) == [.send(.text, Array("A again".utf8))])
        let missed = replay.received(.text, Array("get c".utf8), at: .zero)
        guard case .missed(let miss) = missed.first else {
            Issue.record("no miss in \(missed)")
            return
        }
        #expect(miss.candidatesCompared == 2)
        #expect(miss.nearest.count == 2)
    }

    @Test func theServersRecordedCloseIsSentAfterItsMessages() {
        let feed = WebSocketConversation(
            messages: [.text(.server, "tick", at: .milliseconds(100))],
            close: WebSocketConversation.Close(.server, code: 1001, reason: "going away", offset: .milliseconds(300)))
        var replay = WebSocketReplay(conversation: feed)
        _ = replay.opened(at: .zero)
        #expect(replay.advance(to: .milliseconds(300)) == [.send(.text, Array("tick".utf8)), .close(code: 1001, reason: "going away")])
        #expect(replay.clientClosed(code: 1001, at: .milliseconds(310)) == [.closeConnection])
    }

    @Test func aMessageAfterTheRecordingsLastIsAMiss() {
        var replay = WebSocketReplay(conversation: WebSocketConversation(messages: [.text(.server, "only", at: .zero)]))
        #expect(replay.opened(at: .zero) == [.send(.text, Array("only".utf8))])
        let actions = replay.received(.text, Array("more?".utf8), at: .seconds(1))
        guard case .missed(let miss) = actions.first else {
            Issue.record("no miss in \(actions)")
            return
        }
        #expect(miss.reason.contains("no client message"))
        #expect(miss.nearest.isEmpty)
    }

    @Test func conversationsWhoseClockGoesBackAreRefused() {
        let backwards = WebSocketConversation(messages: [.text(.server, "b", at: .seconds(2)), .text(.client, "a", at: .seconds(1))])
        #expect(backwards.problem?.contains("goes back") == true)
        let badText = WebSocketConversation(messages: [Message(.client, .text, payload: [0xFF], offset: .zero)])
        #expect(badText.problem?.contains("UTF-8") == true)
        let reserved = WebSocketConversation(close: WebSocketConversation.Close(.server, code: 1006, offset: .zero))
        #expect(reserved.problem?.contains("1006") == true)
        #expect(chat.problem == nil)
    }
}
