/// What was said on a WebSocket after its upgrade: the messages both ways, in the order they were sent,
/// each with its offset from the moment the upgrade's `101` arrived, and how the socket closed.
///
/// A track whose request was a WebSocket handshake keeps its conversation (``Track/webSocket``); replay
/// answers the handshake itself and plays the conversation (`WebSocketReplay`): the client's messages
/// are matched in canonical form, the server's are sent at their recorded offsets.
///
/// Messages are whole: fragments are reassembled before they are kept, and control frames (ping, pong)
/// are not part of the conversation (a replaying server answers pings itself).
public struct WebSocketConversation: Sendable, Hashable {
    /// Which end of the socket sent a message or the close.
    public enum Sender: String, Sendable, Hashable {
        /// The application under test, which opened the socket.
        case client
        /// The service (the upstream while recording; Tonearm while replaying).
        case server
    }

    /// One whole message: its sender, whether it was text or binary, its payload and when it was sent.
    public struct Message: Sendable, Hashable {
        /// Whether a message is text (UTF-8) or binary: RFC 6455 defines these two data frames, and no
        /// extension Tonearm negotiates adds another.
        public enum Kind: String, Sendable, Hashable {
            case text
            case binary
        }

        /// Which end sent it.
        public var sender: Sender
        /// Text or binary.
        public var kind: Kind
        /// The payload, unmasked (text as UTF-8 bytes).
        public var payload: [UInt8]
        /// How long after the upgrade it was sent (as the recording end saw it: for the client's messages,
        /// when they arrived; for the server's, when they arrived from the upstream).
        public var offset: Duration

        /// A message from `sender`, `offset` after the upgrade.
        public init(_ sender: Sender, _ kind: Kind, payload: [UInt8], offset: Duration) {
            self.sender = sender
            self.kind = kind
            self.payload = payload
            self.offset = offset
        }

        /// A text message from `sender`, `offset` after the upgrade.
        public static func text(_ sender: Sender, _ text: String, at offset: Duration = .zero) -> Message {
            Message(sender, .text, payload: Array(text.utf8), offset: offset)
        }

        /// A binary message from `sender`, `offset` after the upgrade.
        public static func binary(_ sender: Sender, _ payload: [UInt8], at offset: Duration = .zero) -> Message {
            Message(sender, .binary, payload: payload, offset: offset)
        }
    }

    /// How the socket closed: who sent the first close frame, its status code and reason, and when.
    public struct Close: Sendable, Hashable {
        /// Which end closed first.
        public var sender: Sender
        /// The close frame's status code (1000 a normal close); `nil` when the frame had none.
        public var code: UInt16?
        /// The close frame's reason text (at most 123 bytes of UTF-8 on the wire).
        public var reason: String
        /// How long after the upgrade it was sent.
        public var offset: Duration

        /// A close sent by `sender` with `code` and `reason`, `offset` after the upgrade.
        public init(_ sender: Sender, code: UInt16? = 1000, reason: String = "", offset: Duration) {
            self.sender = sender
            self.code = code
            self.reason = reason
            self.offset = offset
        }
    }

    /// The messages, in the order they were sent.
    public var messages: [Message]
    /// How it closed; `nil` when the recording ended without a close (the connection dropped, or the
    /// recording was cut).
    public var close: Close?

    /// A conversation of `messages` (in the order sent), ending with `close`.
    public init(messages: [Message] = [], close: Close? = nil) {
        self.messages = messages
        self.close = close
    }

    /// What is wrong with this conversation, if anything: an offset below zero or before the previous
    /// message's (a recording's clock never goes back), a text message that is not UTF-8, or a close
    /// code a close frame may not carry. A loader refuses such a track, naming it.
    public var problem: String? {
        var previous = Duration.zero
        for (index, message) in messages.enumerated() {
            if message.offset < .zero { return "message \(index) is sent before the upgrade (\(message.offset))" }
            if message.offset < previous {
                return "message \(index)'s offset (\(message.offset)) goes back before message \(index - 1)'s (\(previous))"
            }
            if message.kind == .text, String(validating: message.payload, as: UTF8.self) == nil {
                return "message \(index) is text but its payload is not UTF-8"
            }
            previous = message.offset
        }
        if let close {
            if close.offset < previous { return "the close's offset (\(close.offset)) goes back before the last message's (\(previous))" }
            if let code = close.code, !Self.isSendable(closeCode: code) {
                return "the close code \(code) is not one a close frame may carry (1000-1003, 1007-1014, 3000-4999)"
            }
            if close.reason.utf8.count > 123 { return "the close reason is \(close.reason.utf8.count) bytes; a close frame holds at most 123" }
        }
        return nil
    }

    /// Whether a close frame may carry `code` (RFC 6455 §7.4: 1004-1006 and 1015 are reserved for
    /// reports, never sent).
    public static func isSendable(closeCode code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
