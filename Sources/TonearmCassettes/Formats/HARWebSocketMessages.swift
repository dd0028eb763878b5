import Foundation
import Tonearm

/// A WebSocket conversation in HAR, as Chrome's devtools write it: the entry's `_webSocketMessages`, each
/// `{"type": "send" | "receive", "time": <seconds since 1970>, "opcode": 1 | 2, "data": "…"}` (binary data
/// in base64), so a HAR saved from a browser replays its sockets and one Tonearm writes opens in the
/// browser's tools. Playwright (`recordHar`, `record_har_path`) writes the same members with the time in
/// milliseconds since 1970 (and -1 when told to omit timing); both are read. HAR has no close: Tonearm keeps it in `_tonearmWebSocketClose`
/// (`{"at", "from", "code", "reason"}`, as the native format's `close`). HAR readers ignore members
/// starting `_`.
enum HARWebSocketMessages {
    static func output(_ conversation: WebSocketConversation, startedAt started: Date) -> [(String, JSONOutput)] {
        let start = started.timeIntervalSince1970
        var members: [(String, JSONOutput)] = [
            ("_resourceType", .string("websocket")),
            ("_webSocketMessages", .array(conversation.messages.map { message in
                let seconds = Double(message.offset.components.seconds) + Double(message.offset.components.attoseconds) / 1e18
                let data: String = message.kind == .text ? String(decoding: message.payload, as: UTF8.self) : Base64.encode(message.payload)
                return .object([
                    ("type", .string(message.sender == .client ? "send" : "receive")),
                    ("time", .number(String(format: "%.3f", start + seconds))),
                    ("opcode", .int(message.kind == .text ? 1 : 2)),
                    ("data", .string(data)),
                ])
            })),
        ]
        if let close = conversation.close { members.append(("_tonearmWebSocketClose", NativeWebSocketCodec.closeOutput(close))) }
        return members
    }

    /// `ws://…` as `http://…` and `wss://…` as `https://…`: the URL a handshake goes to, as tracks keep it.
    static func httpURL(_ url: String) -> String {
        if url.lowercased().hasPrefix("wss://") { return "https://" + url.dropFirst(6) }
        if url.lowercased().hasPrefix("ws://") { return "http://" + url.dropFirst(5) }
        return url
    }

    /// A message's `time` in seconds since 1970: Chrome writes seconds, Playwright milliseconds. No
    /// message is sent in the year 5138, so a time past 10^11 is milliseconds.
    static func seconds(_ time: Double) -> Double {
        time > 100_000_000_000 ? time / 1_000 : time
    }

    /// The conversation of `entry`, `nil` when it has no `_webSocketMessages`; times are counted from
    /// `started` (the entry's `startedDateTime`), or from the first message when it has none.
    static func read(_ entry: DocumentCursor, startedAt started: Date?) throws(CassetteError) -> WebSocketConversation? {
        guard let list = try entry.member("_webSocketMessages") else { return nil }
        let elements = try list.elements()
        var origin = started?.timeIntervalSince1970
        var messages: [WebSocketConversation.Message] = []
        var previous = Duration.zero
        for element in elements {
            let timeCursor = try element.required("time", expected: "the message's time in seconds since 1970")
            guard let written = Double(try timeCursor.scalarText()) else {
                throw timeCursor.error(expected: "a number of seconds since 1970", found: try timeCursor.scalarText())
            }
            let time = Self.seconds(written)
            let start = origin ?? time
            origin = start
            let offset = Duration.milliseconds(Int64((max(0, time - start) * 1_000).rounded()))
            guard offset >= previous else {
                throw timeCursor.error(expected: "a time no earlier than the message before's", found: "\(time): the messages go back in time")
            }
            previous = offset
            let type = try element.required("type", expected: "\"send\" or \"receive\"")
            let sender: WebSocketConversation.Sender
            switch try type.string() {
            case "send": sender = .client
            case "receive": sender = .server
            case let other: throw type.error(expected: "\"send\" or \"receive\"", found: other.debugDescription)
            }
            let data = try element.required("data", expected: "the message's data").string()
            switch try element.optionalInt("opcode") ?? 1 {
            case 1:
                messages.append(WebSocketConversation.Message(sender, .text, payload: Array(data.utf8), offset: offset))
            case 2:
                guard let bytes = Base64.decode(data) else { throw element.error(expected: "binary data (opcode 2) in base64", found: "other text") }
                messages.append(WebSocketConversation.Message(sender, .binary, payload: bytes, offset: offset))
            case let opcode:
                throw element.error(expected: "opcode 1 (text) or 2 (binary)", found: "\(opcode)")
            }
        }
        var conversation = WebSocketConversation(messages: messages)
        if let close = try entry.member("_tonearmWebSocketClose") {
            conversation.close = try NativeWebSocketCodec.readClose(close, after: previous)
        }
        return conversation
    }
}
