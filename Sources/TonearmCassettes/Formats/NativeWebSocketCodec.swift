import Tonearm

/// How the native format keeps a WebSocket track's conversation (``Track/webSocket``), as the track's
/// `webSocket` member:
///
/// ```json
/// "webSocket": {
///   "messages": [
///     {"at": 50, "from": "server", "text": "welcome"},
///     {"at": 1000, "from": "client", "json": {"op": "ask"}},
///     {"at": 1500, "from": "server", "base64": "AQID"}
///   ],
///   "close": {"at": 2000, "from": "client", "code": 1000, "reason": "done"}
/// }
/// ```
///
/// `at` is milliseconds after the upgrade; a text message is `json` when it is compact JSON (its exact
/// bytes), else `text`; a binary message is `base64`. `close` is absent when the recording ended without
/// one, and its `code` when the close frame had none.
enum NativeWebSocketCodec {
    // MARK: Writing

    static func output(_ conversation: WebSocketConversation) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("messages", .array(conversation.messages.map(messageOutput)))]
        if let close = conversation.close { members.append(("close", closeOutput(close))) }
        return .object(members)
    }

    /// `{"at", "from", "code", "reason"}` (also HAR's `_tonearmWebSocketClose`).
    static func closeOutput(_ close: WebSocketConversation.Close) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("at", .int(RecordedLimits.milliseconds(close.offset) ?? 0)), ("from", .string(close.sender.rawValue)),
        ]
        if let code = close.code { members.append(("code", .int(Int(code)))) }
        if !close.reason.isEmpty { members.append(("reason", .string(close.reason))) }
        return .object(members)
    }

    private static func messageOutput(_ message: WebSocketConversation.Message) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("at", .int(RecordedLimits.milliseconds(message.offset) ?? 0)), ("from", .string(message.sender.rawValue)),
        ]
        switch message.kind {
        case .text:
            if JSONDocumentParser.isCompactJSON(message.payload) {
                members.append(("json", .json(message.payload)))
            } else {
                members.append(("text", .string(String(decoding: message.payload, as: UTF8.self))))
            }
        case .binary:
            members.append(("base64", .string(Base64.encode(message.payload))))
        }
        return .object(members)
    }

    // MARK: Reading

    /// The conversation at `cursor`; refuses times that go back, unknown senders, a text message that is
    /// not text, and close codes a close frame may not carry, naming where.
    static func read(_ cursor: DocumentCursor) throws(CassetteError) -> WebSocketConversation {
        var messages: [WebSocketConversation.Message] = []
        var previous = Duration.zero
        for element in try cursor.member("messages")?.elements() ?? [] {
            let at = try element.required("at", expected: "the message's time in milliseconds after the upgrade")
            let offset = try at.delay()
            guard offset >= previous else {
                throw at.error(expected: "a time no earlier than the message before's (\(previous))", found: "\(offset): the messages go back in time")
            }
            previous = offset
            let sender = try readSender(element)
            let payload: (WebSocketConversation.Message.Kind, [UInt8])
            if let json = try element.member("json") {
                payload = (.text, BodyStorage.jsonBytes(json))
            } else if let text = try element.member("text") {
                payload = (.text, Array(try text.string().utf8))
            } else if let base64 = try element.member("base64") {
                guard let bytes = Base64.decode(try base64.string()) else { throw base64.error(expected: "base64 text", found: "other text") }
                payload = (.binary, bytes)
            } else {
                throw element.missing("text", expected: "the message as \"text\", \"json\" or \"base64\"")
            }
            messages.append(WebSocketConversation.Message(sender, payload.0, payload: payload.1, offset: offset))
        }
        let close = try cursor.member("close").map { (member) throws(CassetteError) in try readClose(member, after: previous) }
        return WebSocketConversation(messages: messages, close: close)
    }

    /// A close written by ``closeOutput(_:)``, no earlier than `previous` (the last message's time).
    static func readClose(_ closeCursor: DocumentCursor, after previous: Duration) throws(CassetteError) -> WebSocketConversation.Close {
        let at = try closeCursor.required("at", expected: "the close's time in milliseconds after the upgrade")
        let offset = try at.delay()
        guard offset >= previous else {
            throw at.error(expected: "a time no earlier than the last message's (\(previous))", found: "\(offset): the close goes back in time")
        }
        var code: UInt16?
        if let codeCursor = try closeCursor.member("code") {
            let value = try codeCursor.int()
            guard let sendable = UInt16(exactly: value), WebSocketConversation.isSendable(closeCode: sendable) else {
                throw codeCursor.error(expected: "a close code a close frame may carry (1000-1003, 1007-1014, 3000-4999)", found: "\(value)")
            }
            code = sendable
        }
        let reason = try closeCursor.optionalString("reason") ?? ""
        guard reason.utf8.count <= 123 else {
            throw closeCursor.error(expected: "a close reason of at most 123 bytes", found: "\(reason.utf8.count) bytes")
        }
        return WebSocketConversation.Close(try readSender(closeCursor), code: code, reason: reason, offset: offset)
    }

    private static func readSender(_ cursor: DocumentCursor) throws(CassetteError) -> WebSocketConversation.Sender {
        let from = try cursor.required("from", expected: "\"client\" or \"server\"")
        guard let sender = WebSocketConversation.Sender(rawValue: try from.string()) else {
            throw from.error(expected: "\"client\" or \"server\"", found: try from.string().debugDescription)
        }
        return sender
    }
}
