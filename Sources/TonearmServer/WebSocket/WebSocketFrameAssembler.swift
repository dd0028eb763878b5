import NIOCore
import NIOWebSocket
import Tonearm

/// Whole messages from a peer's frames, decided as a value: fragments reassembled, control frames told
/// apart, and every breach of RFC 6455 named with the close code it calls for. The handlers feed it the
/// decoded frames and act on what it says.
///
/// - A message over ``maximumMessageSize`` (across its fragments) is 1009 (message too big).
/// - A continuation with no message begun, a new message before the last one ended, a reserved bit or
///   opcode, a fragmented or oversized control frame, a close frame of one byte or with a code no frame
///   may carry, or (from a client) an unmasked frame is 1002 (protocol error).
/// - Text that is not UTF-8 (a message, or a close reason) is 1007 (invalid payload data).
struct WebSocketFrameAssembler {
    /// What a frame amounts to.
    enum Output: Equatable {
        /// Nothing yet: a fragment of a message that goes on.
        case none
        /// A whole message.
        case message(WebSocketConversation.Message.Kind, [UInt8])
        /// A ping, to be answered with a pong carrying `payload`.
        case ping([UInt8])
        /// A pong (answers nothing).
        case pong
        /// The peer's close frame: its code (none when it had none) and reason.
        case close(code: UInt16?, reason: String)
        /// The peer broke the protocol: close with `code` saying `reason`, and read nothing more.
        case violation(code: UInt16, reason: String)
    }

    /// The largest message taken, in bytes.
    let maximumMessageSize: Int
    /// Whether the peer is a client, whose frames must be masked.
    let peerIsClient: Bool
    private var partial: (kind: WebSocketConversation.Message.Kind, bytes: [UInt8])?

    init(maximumMessageSize: Int, peerIsClient: Bool) {
        self.maximumMessageSize = maximumMessageSize
        self.peerIsClient = peerIsClient
    }

    mutating func received(_ frame: WebSocketFrame) -> Output {
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return .violation(code: 1002, reason: "reserved bits set; no extension was negotiated") }
        if peerIsClient, frame.maskKey == nil { return .violation(code: 1002, reason: "a client's frames must be masked") }
        if !peerIsClient, frame.maskKey != nil { return .violation(code: 1002, reason: "a server's frames must not be masked") }
        var data = frame.unmaskedData
        let bytes = data.readBytes(length: data.readableBytes) ?? []
        switch frame.opcode {
        case .ping, .pong, .connectionClose:
            guard frame.fin, bytes.count <= 125 else { return .violation(code: 1002, reason: "a control frame must be whole and at most 125 bytes") }
            if frame.opcode == .ping { return .ping(bytes) }
            if frame.opcode == .pong { return .pong }
            return Self.close(bytes)
        case .text, .binary:
            guard partial == nil else { return .violation(code: 1002, reason: "a new message began before the last one ended") }
            let kind: WebSocketConversation.Message.Kind = frame.opcode == .text ? .text : .binary
            return append(bytes, kind: kind, fin: frame.fin)
        case .continuation:
            guard let kind = partial?.kind else { return .violation(code: 1002, reason: "a continuation frame with no message begun") }
            return append(bytes, kind: kind, fin: frame.fin)
        default:
            return .violation(code: 1002, reason: "reserved opcode \(frame.opcode)")
        }
    }

    /// What the frame decoder's refusal `error` amounts to: a frame over the size limit is 1009, a
    /// malformed control frame 1002.
    static func violation(for error: NIOWebSocketError) -> Output {
        .violation(code: error == .invalidFrameLength ? 1009 : 1002, reason: "\(error)")
    }

    private mutating func append(_ bytes: [UInt8], kind: WebSocketConversation.Message.Kind, fin: Bool) -> Output {
        var message = partial?.bytes ?? []
        partial = nil
        guard message.count <= maximumMessageSize - bytes.count else {
            return .violation(code: 1009, reason: "a message over \(maximumMessageSize) bytes")
        }
        message += bytes
        guard fin else {
            partial = (kind, message)
            return .none
        }
        if kind == .text, String(validating: message, as: UTF8.self) == nil {
            return .violation(code: 1007, reason: "a text message that is not UTF-8")
        }
        return .message(kind, message)
    }

    private static func close(_ bytes: [UInt8]) -> Output {
        guard !bytes.isEmpty else { return .close(code: nil, reason: "") }
        guard bytes.count >= 2 else { return .violation(code: 1002, reason: "a close frame of one byte") }
        let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard WebSocketConversation.isSendable(closeCode: code) else {
            return .violation(code: 1002, reason: "close code \(code) may not be sent")
        }
        guard let reason = String(validating: bytes[2...], as: UTF8.self) else {
            return .violation(code: 1007, reason: "a close reason that is not UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}

extension WebSocketFrame {
    /// A whole, unmasked frame carrying `payload` (what a server sends).
    static func server(_ opcode: WebSocketOpcode, _ payload: [UInt8], allocator: ByteBufferAllocator) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, data: allocator.buffer(bytes: payload))
    }

    /// A close frame with `code` (none when `nil`) and `reason`, cut to the 123 bytes a close frame holds.
    static func close(code: UInt16?, reason: String, masked: Bool = false, allocator: ByteBufferAllocator) -> WebSocketFrame {
        var payload: [UInt8] = []
        if let code {
            payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            var cut = Array(reason.utf8.prefix(123))
            while !cut.isEmpty, String(validating: cut, as: UTF8.self) == nil { cut.removeLast() }
            payload += cut
        }
        return WebSocketFrame(
            fin: true, opcode: .connectionClose, maskKey: masked ? .random() : nil, data: allocator.buffer(bytes: payload))
    }
}
