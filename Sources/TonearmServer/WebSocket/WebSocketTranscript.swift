import Tonearm

/// What a replayed WebSocket exchanged, kept as it goes for the journal: the client's messages, the
/// messages played to it, and the first close, with their times from the upgrade. Bounded: once the
/// kept payloads reach ``byteLimit``, further messages are counted, not kept, so a client that talks
/// for hours costs the server no more than a short conversation.
struct WebSocketTranscript {
    /// The most payload bytes kept.
    let byteLimit: Int
    /// What was kept.
    private(set) var conversation = WebSocketConversation()
    /// How many messages were not kept for the limit.
    private(set) var leftOut = 0
    private var keptBytes = 0

    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
    }

    /// `sender` sent `payload` as a `kind` message at `offset`.
    mutating func add(_ sender: WebSocketConversation.Sender, _ kind: WebSocketConversation.Message.Kind, _ payload: [UInt8], at offset: Duration) {
        guard leftOut == 0, payload.count <= byteLimit - keptBytes else {
            leftOut += 1
            return
        }
        keptBytes += payload.count
        conversation.messages.append(WebSocketConversation.Message(sender, kind, payload: payload, offset: offset))
    }

    /// `sender` closed with `code` and `reason` at `offset`; only the first close counts.
    mutating func closed(by sender: WebSocketConversation.Sender, code: UInt16?, reason: String, at offset: Duration) {
        guard conversation.close == nil else { return }
        conversation.close = WebSocketConversation.Close(sender, code: code, reason: reason, offset: offset)
    }
}
