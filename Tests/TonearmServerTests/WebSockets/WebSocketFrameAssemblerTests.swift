import NIOCore
import NIOWebSocket
import Testing
import Tonearm

@testable import TonearmServer

/// The peer's frames as the WebSocket handlers act on them: messages reassembled, control frames told
/// apart, every breach of RFC 6455 named with the close code it calls for (no socket: frames built here).
@Suite("WebSockets: frames to messages")
struct WebSocketFrameAssemblerTests {
    private let allocator = ByteBufferAllocator()

    private func frame(
        _ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv1: Bool = false
    ) -> WebSocketFrame {
        var data = allocator.buffer(bytes: payload)
        let key: WebSocketMaskingKey? = masked ? [1, 2, 3, 4] : nil
        if let key { data.webSocketMask(key) }
        return WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, maskKey: key, data: data)
    }

    private func assembler(limit: Int = 1_000) -> WebSocketFrameAssembler {
        WebSocketFrameAssembler(maximumMessageSize: limit, peerIsClient: true)
    }

    @Test func fragmentsMakeOneMessageAndControlFramesMayComeBetweenThem() {
        var assembler = assembler()
        #expect(assembler.received(frame(.text, Array("Hel".utf8), fin: false)) == .none)
        #expect(assembler.received(frame(.ping, [9])) == .ping([9]))
        #expect(assembler.received(frame(.continuation, Array("lo".utf8))) == .message(.text, Array("Hello".utf8)))
        #expect(assembler.received(frame(.binary, [0, 255])) == .message(.binary, [0, 255]))
        #expect(assembler.received(frame(.pong, [])) == .pong)
    }

    @Test func closeFramesGiveTheirCodeAndReason() {
        var assembler = assembler()
        #expect(assembler.received(frame(.connectionClose, [])) == .close(code: nil, reason: ""))
        #expect(assembler.received(frame(.connectionClose, [0x03, 0xE8] + Array("bye".utf8))) == .close(code: 1000, reason: "bye"))
        #expect(assembler.received(frame(.connectionClose, [0x03])) == .violation(code: 1002, reason: "a close frame of one byte"))
        // 1006 is for reports, never sent.
        #expect(assembler.received(frame(.connectionClose, [0x03, 0xEE])) == .violation(code: 1002, reason: "close code 1006 may not be sent"))
    }

    @Test func protocolErrorsAre1002() {
        var unmasked = assembler()
        #expect(unmasked.received(frame(.text, [65], masked: false)) == .violation(code: 1002, reason: "a client's frames must be masked"))
        var continuation = assembler()
        #expect(continuation.received(frame(.continuation, [65])) == .violation(code: 1002, reason: "a continuation frame with no message begun"))
        var interleaved = assembler()
        _ = interleaved.received(frame(.text, [65], fin: false))
        #expect(interleaved.received(frame(.binary, [66])) == .violation(code: 1002, reason: "a new message began before the last one ended"))
        var reserved = assembler()
        #expect(reserved.received(frame(.text, [65], rsv1: true)) == .violation(code: 1002, reason: "reserved bits set; no extension was negotiated"))
        var control = assembler()
        #expect(control.received(frame(.ping, [1], fin: false)) == .violation(code: 1002, reason: "a control frame must be whole and at most 125 bytes"))
        var server = WebSocketFrameAssembler(maximumMessageSize: 10, peerIsClient: false)
        #expect(server.received(frame(.text, [65])) == .violation(code: 1002, reason: "a server's frames must not be masked"))
    }

    @Test func tooBigIs1009AndTextThatIsNotUTF8Is1007() {
        var assembler = assembler(limit: 4)
        #expect(assembler.received(frame(.binary, [1, 2, 3], fin: false)) == .none)
        #expect(assembler.received(frame(.continuation, [4, 5])) == .violation(code: 1009, reason: "a message over 4 bytes"))
        var text = self.assembler()
        #expect(text.received(frame(.text, [0xC3])) == .violation(code: 1007, reason: "a text message that is not UTF-8"))
        // A character cut between fragments is whole once reassembled.
        var split = self.assembler()
        #expect(split.received(frame(.text, [0xC3], fin: false)) == .none)
        #expect(split.received(frame(.continuation, [0xA9])) == .message(.text, Array("é".utf8)))
    }
}
