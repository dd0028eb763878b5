import Testing
import Tonearm

@testable import TonearmServer

/// A recorded WebSocket's relay decisions on a clock the test moves (no socket, no waiting): what goes
/// to each end, what the conversation keeps, and when an end that never answers a close is cut.
@Suite("WebSockets: the relay's decisions")
struct WebSocketRelayStateTests {
    private static let grace = WebSocketReplay.closeGrace

    @Test("Messages go to the other end and are kept with their offsets; pings are answered where they came from")
    func messagesAndPings() {
        var relay = WebSocketRelayState()
        #expect(relay.received(.message(.text, Array("hi".utf8)), from: .client, at: .milliseconds(10)) == [.send(to: .upstream, .text, Array("hi".utf8))])
        #expect(relay.received(.ping([7]), from: .upstream, at: .milliseconds(20)) == [.pong(to: .upstream, [7])])
        #expect(relay.received(.message(.binary, [1, 2]), from: .upstream, at: .milliseconds(30)) == [.send(to: .client, .binary, [1, 2])])
        #expect(relay.received(.pong, from: .client, at: .milliseconds(40)).isEmpty)
        #expect(relay.deadline == nil)
        #expect(relay.ended(.client, at: .milliseconds(50)) == [
            .sendClose(to: .upstream, code: 1001, reason: "the client went away"),
            .finish(WebSocketConversation(
                messages: [
                    WebSocketConversation.Message(.client, .text, payload: Array("hi".utf8), offset: .milliseconds(10)),
                    WebSocketConversation.Message(.server, .binary, payload: [1, 2], offset: .milliseconds(30)),
                ],
                close: nil), cut: nil),
        ])
    }

    @Test("A close is passed on and answered; the other end's answer closes its connection, and no timer is left")
    func closeAnswered() {
        var relay = WebSocketRelayState()
        #expect(relay.received(.close(code: 1000, reason: "done"), from: .client, at: .seconds(1)) == [
            .sendClose(to: .upstream, code: 1000, reason: "done"), .sendClose(to: .client, code: 1000, reason: ""), .closeConnectionAfterWrites(.client),
        ])
        #expect(relay.deadline == .seconds(1) + Self.grace)
        // Data after a close is dropped, not relayed nor kept.
        #expect(relay.received(.message(.text, [65]), from: .upstream, at: .seconds(2)).isEmpty)
        #expect(relay.received(.close(code: 1000, reason: ""), from: .upstream, at: .seconds(2)) == [.closeConnection(.upstream)])
        #expect(relay.deadline == nil)
        #expect(relay.advance(to: .seconds(60)).isEmpty)
        #expect(relay.ended(.upstream, at: .seconds(2)) == [
            .finish(WebSocketConversation(close: WebSocketConversation.Close(.client, code: 1000, reason: "done", offset: .seconds(1))), cut: nil)
        ])
    }

    @Test("An end that never answers the close passed to it is cut when the grace runs out, not a moment before")
    func closeUnanswered() {
        var relay = WebSocketRelayState()
        _ = relay.received(.close(code: 4000, reason: "app"), from: .upstream, at: .seconds(3))
        let cut = Duration.seconds(3) + Self.grace
        #expect(relay.deadline == cut)
        #expect(relay.advance(to: cut - .milliseconds(1)).isEmpty)
        #expect(relay.advance(to: cut) == [.closeConnection(.client)])
        #expect(relay.deadline == nil)
        #expect(relay.advance(to: cut + .seconds(1)).isEmpty)
    }

    @Test("An end that leaves during its grace needs no cut; the conversation is finished once")
    func endedDuringGrace() {
        var relay = WebSocketRelayState()
        #expect(relay.ended(.upstream, at: .seconds(1)) == [
            .sendClose(to: .client, code: 1001, reason: "the upstream went away"), .finish(WebSocketConversation(), cut: nil),
        ])
        #expect(relay.deadline == .seconds(1) + Self.grace)
        // Its answer to the 1001 closes its connection; nothing more is relayed or kept.
        #expect(relay.received(.message(.text, [65]), from: .client, at: .seconds(2)).isEmpty)
        #expect(relay.received(.close(code: 1001, reason: ""), from: .client, at: .seconds(2)) == [.closeConnection(.client)])
        #expect(relay.ended(.client, at: .seconds(2)).isEmpty)
        #expect(relay.deadline == nil)
    }

    @Test("A protocol breach closes the breaking end with its code and the other going away, kept as the server's close")
    func violation() {
        var relay = WebSocketRelayState()
        #expect(relay.received(.violation(code: 1009, reason: "too big"), from: .client, at: .seconds(1)) == [
            .sendClose(to: .client, code: 1009, reason: "too big"), .closeConnectionAfterWrites(.client),
            .sendClose(to: .upstream, code: 1001, reason: "the other end broke the protocol"),
        ])
        #expect(relay.deadline == .seconds(1) + Self.grace)
        let actions = relay.ended(.client, at: .seconds(1))
        #expect(actions == [.finish(WebSocketConversation(
            close: WebSocketConversation.Close(.server, code: 1001, reason: "the other end broke the protocol", offset: .seconds(1))), cut: nil)])
    }

    @Test("A stopping server tells both ends it is going away and keeps that as the close")
    func stop() {
        var relay = WebSocketRelayState()
        _ = relay.received(.message(.text, [65]), from: .client, at: .seconds(1))
        #expect(relay.stop(at: .seconds(2)) == [
            .sendClose(to: .client, code: 1001, reason: "tonearm is stopping"), .closeConnectionAfterWrites(.client),
            .sendClose(to: .upstream, code: 1001, reason: "tonearm is stopping"), .closeConnectionAfterWrites(.upstream),
        ])
        #expect(relay.ended(.client, at: .seconds(2)) == [.finish(WebSocketConversation(
            messages: [WebSocketConversation.Message(.client, .text, payload: [65], offset: .seconds(1))],
            close: WebSocketConversation.Close(.server, code: 1001, reason: "tonearm is stopping", offset: .seconds(2))), cut: nil)])
    }

    @Test("Past the recording limit messages are still relayed but no longer kept, and the recording is finished marked as cut")
    func recordingLimit() {
        var relay = WebSocketRelayState(recordingLimit: 10)
        #expect(relay.received(.message(.text, Array("123456".utf8)), from: .client, at: .milliseconds(1)) == [.send(to: .upstream, .text, Array("123456".utf8))])
        #expect(relay.received(.message(.text, Array("7890".utf8)), from: .upstream, at: .milliseconds(2)) == [.send(to: .client, .text, Array("7890".utf8))])
        // The limit is reached: relayed all the same, not kept, nor is anything after it.
        #expect(relay.received(.message(.text, Array("x".utf8)), from: .client, at: .milliseconds(3)) == [.send(to: .upstream, .text, Array("x".utf8))])
        #expect(relay.received(.message(.text, Array("".utf8)), from: .upstream, at: .milliseconds(4)) == [.send(to: .client, .text, [])])
        let actions = relay.ended(.upstream, at: .milliseconds(5))
        #expect(actions.last == .finish(
            WebSocketConversation(messages: [
                WebSocketConversation.Message(.client, .text, payload: Array("123456".utf8), offset: .milliseconds(1)),
                WebSocketConversation.Message(.server, .text, payload: Array("7890".utf8), offset: .milliseconds(2)),
            ]),
            cut: "the conversation passed the 10-byte limit (--max-body-size) after 2 messages"))
    }
}
