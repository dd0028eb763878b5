import Foundation
import Tonearm
import TonearmCassettes

/// The inspector API's JSON documents (docs/server.md, "Inspector": the page's contract), built with the
/// core's one JSON model. Everything a recording holds goes out as JSON strings, which the page puts
/// in the DOM as text: nothing here is markup.
enum InspectorDocuments {
    /// The most bytes of a binary body shown as a hex dump.
    static let hexDumpLimit = 512

    /// An exchange as the list shows it: `{"id","time","method","url","status","source","detail","ms"}`,
    /// and `"stream"` once a stream has ended (``stream(of:)``).
    static func summary(_ entry: JournalEntry) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "id", value: .integer(entry.sequence)),
            JSONMember(key: "time", value: .string(Timestamp.iso8601(entry.time))),
            JSONMember(key: "method", value: .string(entry.request.method)),
            JSONMember(key: "url", value: .string(entry.request.url)),
            JSONMember(key: "status", value: entry.status.map(JSONValue.integer) ?? .null),
            JSONMember(key: "source", value: .string(entry.source.kind.rawValue)),
            JSONMember(key: "detail", value: .string(entry.source.detail)),
            JSONMember(key: "ms", value: milliseconds(entry.latency)),
        ]
        if let stream = stream(of: entry) { members.append(JSONMember(key: "stream", value: stream)) }
        return .object(members)
    }

    /// `duration` in milliseconds, to the microsecond.
    static func milliseconds(_ duration: Duration) -> JSONValue {
        let parts = duration.components
        return .double((Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15 * 1000).rounded() / 1000)
    }

    /// What a stream that ended amounted to, for the list: `{"messages","leftOut","close","ms"}` for a
    /// WebSocket (`close` its code, `null` when none was exchanged), `{"parts","ms"}` for a paced body
    /// (`ms` the last part's or message's offset); `nil` for anything else.
    static func stream(of entry: JournalEntry) -> JSONValue? {
        if let conversation = entry.webSocket {
            let last = max(conversation.messages.last?.offset ?? .zero, conversation.close?.offset ?? .zero)
            return .object([
                "messages": .integer(conversation.messages.count + entry.webSocketMessagesLeftOut),
                "leftOut": .integer(entry.webSocketMessagesLeftOut),
                "close": conversation.close.map { close in close.code.map { .integer(Int($0)) } ?? .null } ?? .null,
                "ms": milliseconds(last),
            ])
        }
        if let pacing = entry.pacing {
            return .object(["parts": .integer(pacing.parts.count), "ms": milliseconds(pacing.duration)])
        }
        return nil
    }

    /// The most parts, or messages, the detail view lists (a stream is cut to the journal's body limit,
    /// 64 KiB, already; a list of a thousand rows is as much as anyone reads).
    static let streamRowLimit = 1000

    /// A WebSocket conversation as the detail view shows it: `{"messages":[{"from","kind","ms","size",
    /// "text"|"hex"}],"leftOut","close":{"from","code","reason","ms"}|null}`, oldest first.
    static func conversation(_ conversation: WebSocketConversation, leftOut: Int) -> JSONValue {
        let messages = conversation.messages.prefix(streamRowLimit).map { message -> JSONValue in
            var members: [JSONMember] = [
                JSONMember(key: "from", value: .string(message.sender.rawValue)),
                JSONMember(key: "kind", value: .string(message.kind.rawValue)),
                JSONMember(key: "ms", value: milliseconds(message.offset)),
                JSONMember(key: "size", value: .integer(message.payload.count)),
            ]
            members.append(payload(message.payload[...], text: message.kind == .text))
            return .object(members)
        }
        let close: JSONValue = conversation.close.map { close in
            .object([
                "from": .string(close.sender.rawValue),
                "code": close.code.map { .integer(Int($0)) } ?? .null,
                "reason": .string(close.reason),
                "ms": milliseconds(close.offset),
            ])
        } ?? .null
        return .object([
            "messages": .array(messages),
            "leftOut": .integer(leftOut + max(0, conversation.messages.count - streamRowLimit)),
            "close": close,
        ])
    }

    /// A paced body's parts as the detail view shows them: `{"parts":[{"ms","size","text"|"hex"}],
    /// "leftOut"}`, each part's bytes from `body` (a Server-Sent Events answer's parts are its events as
    /// they arrived).
    static func parts(_ pacing: BodyPacing, of body: [UInt8]) -> JSONValue {
        var rows: [JSONValue] = []
        var start = 0
        for part in pacing.parts.prefix(streamRowLimit) {
            let end = min(body.count, start + part.byteCount)
            rows.append(.object([
                JSONMember(key: "ms", value: milliseconds(part.offset)),
                JSONMember(key: "size", value: .integer(part.byteCount)),
                payload(body[start..<end], text: true),
            ]))
            start = end
        }
        return .object(["parts": .array(rows), "leftOut": .integer(max(0, pacing.parts.count - streamRowLimit))])
    }

    /// A message's or part's bytes: `"text"` when they read as text (`text` says they should), else `"hex"`.
    private static func payload(_ bytes: ArraySlice<UInt8>, text: Bool) -> JSONMember {
        if text, let readable = readableText(Array(bytes), cut: true) { return JSONMember(key: "text", value: .string(readable)) }
        return JSONMember(key: "hex", value: .string(hexDump(bytes.prefix(hexDumpLimit))))
    }

    /// A body as the detail view shows it: `{"size","kept","truncated","kind","contentType","text"|"hex"}`;
    /// `fullSize` is the body's size before the journal cut it, when it did.
    static func body(_ bytes: [UInt8], headers: [HeaderField], fullSize: Int?) -> JSONValue {
        let contentType = headers.first(named: "Content-Type")
        var members: [JSONMember] = [
            JSONMember(key: "size", value: .integer(fullSize ?? bytes.count)),
            JSONMember(key: "kept", value: .integer(bytes.count)),
            JSONMember(key: "truncated", value: .bool(fullSize != nil)),
            JSONMember(key: "contentType", value: contentType.map(JSONValue.string) ?? .null),
        ]
        guard !bytes.isEmpty else {
            members.append(JSONMember(key: "kind", value: .string("empty")))
            return .object(members)
        }
        let essence = contentType.map(MediaType.essence(of:)) ?? ""
        let looksJSON = MediaType.isJSON(essence: essence) || (essence.isEmpty && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })))
        if looksJSON, fullSize == nil, let pretty = JSONText.prettyPrinted(bytes) {
            members.append(JSONMember(key: "kind", value: .string("json")))
            members.append(JSONMember(key: "text", value: .string(String(decoding: pretty, as: UTF8.self))))
        } else if let text = readableText(bytes, cut: fullSize != nil) {
            members.append(JSONMember(key: "kind", value: .string("text")))
            members.append(JSONMember(key: "text", value: .string(text)))
        } else {
            members.append(JSONMember(key: "kind", value: .string("binary")))
            members.append(JSONMember(key: "hex", value: .string(hexDump(bytes.prefix(hexDumpLimit)))))
        }
        return .object(members)
    }

    /// `bytes` as text when they are UTF-8 without control characters other than tab, CR and LF (the
    /// last character may be cut short when the body was); otherwise `nil`.
    static func readableText(_ bytes: [UInt8], cut: Bool) -> String? {
        var slice = bytes[...]
        // A body cut mid-character: drop the partial sequence at the end (at most 3 bytes).
        if cut, let lead = slice.lastIndex(where: { $0 & 0xC0 != 0x80 }), slice[lead] >= 0xC0 {
            let expected = slice[lead] >= 0xF0 ? 4 : slice[lead] >= 0xE0 ? 3 : 2
            if slice.endIndex - lead < expected { slice = slice[..<lead] }
        }
        guard let text = String(validating: slice, as: UTF8.self) else { return nil }
        let control = text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value)) || scalar.value == 0x7F
        }
        return control ? nil : text
    }

    /// `00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|`, 16 bytes a line.
    static func hexDump(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var lines: [String] = []
        var offset = 0
        for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 16) {
            let row = bytes[start..<min(start + 16, bytes.endIndex)]
            var line = String(offset, radix: 16)
            line = String(repeating: "0", count: max(0, 8 - line.count)) + line + "  "
            for (index, byte) in row.enumerated() {
                line.append(digits[Int(byte >> 4)])
                line.append(digits[Int(byte & 0xF)])
                line += index == 7 ? "  " : " "
            }
            line += String(repeating: "   ", count: 16 - row.count) + (row.count <= 8 ? " " : "")
            line += "|" + String(row.map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "." }) + "|"
            lines.append(line)
            offset += 16
        }
        return lines.joined(separator: "\n")
    }

    /// Header fields as `[[name, value], …]`.
    static func headers(_ fields: [HeaderField]) -> JSONValue {
        .array(fields.map { .array([.string($0.name), .string($0.value)]) })
    }

    /// A request: `{"method","url","headers","body"}`.
    static func request(_ request: Request, fullBodySize: Int?) -> JSONValue {
        .object([
            "method": .string(request.method),
            "url": .string(request.url),
            "headers": headers(request.headers),
            "body": body(request.body, headers: request.headers, fullSize: fullBodySize),
        ])
    }

    /// A response: `{"status","headers","body"}`.
    static func response(_ response: Response, fullBodySize: Int?) -> JSONValue {
        .object([
            "status": .integer(response.status),
            "headers": headers(response.headers),
            "body": body(response.body, headers: response.headers, fullSize: fullBodySize),
        ])
    }

    /// Why an answer of `kind` answered, in words.
    static func why(_ kind: JournalEntry.Source.Kind) -> String? {
        switch kind {
        case .track: "its key (method, URL with the query sorted, canonical body, the chosen headers) is this track's"
        case .recorded: "its key is the key of a track added since the cassette was loaded (recorded, or accepted in the inspector)"
        case .rule, .stub: "the rule's method, pattern and conditions all match it"
        case .mapping: "the WireMock mapping's request pattern matches it"
        case .network: "nothing recorded answered it, and the mode reaches the network: the upstream answered"
        case .miss: "nothing answered it: see the nearest recordings below"
        case .refused: "the server refused it before matching (see the detail)"
        case .upstreamError: "the upstream could not be reached, broke the exchange or timed out"
        case .fault: "a recorded transport error was played: the connection was closed or reset"
        case .cancelled: "the exchange was cancelled before it was answered (the client left, or the server stopped)"
        default: nil
        }
    }

    /// One difference between a request and a candidate: `{"field","name","recorded","received","description"}`.
    static func difference(_ difference: FieldDifference) -> JSONValue {
        .object([
            "field": .string(difference.identifier),
            "name": difference.fieldName.map(JSONValue.string) ?? .null,
            "recorded": difference.recorded.map { .array($0.map(JSONValue.string)) } ?? .null,
            "received": difference.received.map { .array($0.map(JSONValue.string)) } ?? .null,
            "description": .string(difference.description),
        ])
    }

    /// A miss's nearest candidates, closest first, each with the response accepting it would answer:
    /// the nearest tracks, then the nearest rules (mappings, when the miss is the stub mappings').
    static func candidates(of report: MissReport, fromMappings: Bool, redaction: Redaction) -> [JSONValue] {
        var candidates: [JSONValue] = []
        for near in report.nearest {
            let response: JSONValue = if case .response(let recorded) = near.track.outcome {
                Self.response(redaction.redact(recorded), fullBodySize: nil)
            } else {
                .null
            }
            candidates.append(.object([
                "index": .integer(candidates.count),
                "kind": .string("track"),
                "position": .integer(near.position),
                "name": near.track.name.map(JSONValue.string) ?? .null,
                "method": .string(near.track.request.method),
                "url": .string(near.track.request.url),
                "pattern": .null,
                "differences": .array(near.differences.map(difference)),
                "description": .string(near.description),
                "response": response,
            ]))
        }
        for near in report.nearestRules {
            let response: JSONValue = if case .response(let answer) = near.rule.outcome {
                Self.response(redaction.redact(answer), fullBodySize: nil)
            } else {
                .null
            }
            candidates.append(.object([
                "index": .integer(candidates.count),
                "kind": .string(fromMappings ? "mapping" : "rule"),
                "position": .integer(near.position),
                "name": .string(near.rule.name),
                "method": near.rule.method.map(JSONValue.string) ?? .null,
                "url": .null,
                "pattern": .string(near.rule.pattern),
                "differences": .array(near.differences.map(difference)),
                "description": .string(near.description),
                "response": response,
            ]))
        }
        return candidates
    }

    /// The response a candidate of `report` answers with (by its index among ``candidates(of:fromMappings:redaction:)``),
    /// unredacted: what accepting it keeps (redacted then, as every kept track is).
    static func candidateResponse(_ index: Int, of report: MissReport) -> Response? {
        let outcomes = report.nearest.map(\.track.outcome) + report.nearestRules.map(\.rule.outcome)
        guard outcomes.indices.contains(index), case .response(let response) = outcomes[index] else { return nil }
        return response
    }
}
