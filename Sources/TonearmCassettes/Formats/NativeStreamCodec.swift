import Tonearm

/// How the native format keeps a streamed response's body and its pacing (``Track/pacing``), inside the
/// `response` object:
///
/// - A `text/event-stream` body that is UTF-8 is kept as its events instead of `body`:
///   `"events": [{"at": 120, "event": "delta", "json": {…}}, {"at": 480, "data": "[DONE]"}]`. `at` is
///   when the event was complete (its closing blank line arrived), in milliseconds after the head; the
///   fields follow in their order, `data` as text or `json` as a JSON value (the data's exact bytes). An
///   event that is not written as Tonearm writes events back (a comment, CR line ends, the unfinished
///   end of a cut stream) is `{"at": …, "text": "…"}`, its exact text. The body is the events' texts in
///   order.
/// - Any other body stays in `body`, and `"parts": [[0, 512], [250, 512]]` gives each part's offset
///   (milliseconds) and length (bytes), in order; their lengths add up to the body's.
///
/// Times are whole milliseconds; an event's time is its last byte's, so the parts within an event are
/// not kept (what a client's event handler sees is the event).
enum NativeStreamCodec {
    // MARK: Writing

    /// `response`'s body members (`body`, or `events`, and `parts`) for `pacing`, appended to `members`.
    static func appendBody(of response: Response, pacing: BodyPacing, to members: inout [(String, JSONOutput)]) {
        let slices = pacing.slices(ofBodyCount: response.body.count)
        if MediaType.isEventStream(response.headers.first(named: "Content-Type")),
            let events = ServerSentEventText.events(in: response.body)
        {
            // Events and slices are both in body order: one walk finds each event's completing slice
            // (a stream of thousands of events must not cost events × parts).
            var slice = 0
            members.append(("events", .array(events.map { event in
                let last = event.range.upperBound - 1
                while slice + 1 < slices.count, slices[slice].range.upperBound <= last { slice += 1 }
                return eventOutput(event, body: response.body, completedAt: slices.isEmpty ? .zero : slices[slice].offset)
            })))
            return
        }
        if let body = BodyStorage.choose(for: response.body, contentType: response.headers.first(named: "Content-Type")).output {
            members.append(("body", body))
        }
        members.append(("parts", partsOutput(pacing, bodyCount: response.body.count)))
    }

    /// `[[offset in milliseconds, length in bytes], …]` for a body of `bodyCount` bytes: every byte once
    /// (also HAR's `_tonearmParts`).
    static func partsOutput(_ pacing: BodyPacing, bodyCount: Int) -> JSONOutput {
        .array(pacing.slices(ofBodyCount: bodyCount).map { slice in
            .inlineArray([.int(RecordedLimits.milliseconds(slice.offset) ?? 0), .int(slice.range.count)])
        })
    }

    /// One event as its JSON object; `completedAt` is when the part holding its last byte arrived.
    private static func eventOutput(_ event: ServerSentEventText.Event, body: [UInt8], completedAt offset: Duration) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("at", .int(RecordedLimits.milliseconds(offset) ?? 0))]
        let text = Array(body[event.range])
        if let fields = event.fields, Array(ServerSentEventText.text(of: fields).utf8) == text {
            for field in fields {
                let bytes = Array(field.value.utf8)
                if field.name == "data", !field.value.contains("\n"), JSONDocumentParser.isCompactJSON(bytes) {
                    members.append(("json", .json(bytes)))
                } else {
                    members.append((field.name, .string(field.value)))
                }
            }
        } else {
            members.append(("text", .string(String(decoding: text, as: UTF8.self))))
        }
        return .object(members)
    }

    // MARK: Reading

    /// The body and pacing of the `response` object at `cursor`: from `events`, or from `body` and
    /// `parts`; no pacing when it has neither. Refuses parts whose offsets go back in time or whose
    /// lengths do not add up to the body's, naming where.
    static func readBody(_ cursor: DocumentCursor) throws(CassetteError) -> (body: [UInt8], pacing: BodyPacing?) {
        if let events = try cursor.member("events") {
            let hasBody = try cursor.member("body") != nil
            let hasParts = try cursor.member("parts") != nil
            if hasBody || hasParts {
                throw events.error(expected: "either \"events\" or \"body\" (with \"parts\"), not both")
            }
            return try readEvents(events)
        }
        let body = try cursor.member("body").map { (body) throws(CassetteError) in try BodyStorage.read(body) } ?? []
        guard let partsCursor = try cursor.member("parts") else { return (body, nil) }
        return (body, try readParts(partsCursor, bodyCount: body.count))
    }

    /// Parts written by ``partsOutput(_:bodyCount:)`` for a body of `bodyCount` bytes; refuses offsets
    /// that go back in time and lengths that do not add up to the body's, naming where.
    static func readParts(_ partsCursor: DocumentCursor, bodyCount: Int) throws(CassetteError) -> BodyPacing {
        var parts: [BodyPacing.Part] = []
        var total = 0
        var previous = Duration.zero
        for element in try partsCursor.elements() {
            let pair = try element.elements()
            guard pair.count == 2 else { throw element.error(expected: "an [offset in milliseconds, length in bytes] pair", found: "\(pair.count) elements") }
            let offset = try pair[0].delay()
            guard offset >= previous else {
                throw pair[0].error(expected: "an offset no earlier than the part before's (\(previous))", found: "\(offset): the offsets go back in time")
            }
            let length = try pair[1].int()
            guard length >= 0, length <= bodyCount - total else {
                throw pair[1].error(expected: "a length of 0 to \(bodyCount - total) bytes (what is left of the \(bodyCount)-byte body)", found: "\(length)")
            }
            total += length
            previous = offset
            parts.append(BodyPacing.Part(offset: offset, byteCount: length))
        }
        guard total == bodyCount else {
            throw partsCursor.error(expected: "parts holding the whole \(bodyCount)-byte body", found: "\(total) bytes")
        }
        return BodyPacing(parts: parts)
    }

    private static func readEvents(_ cursor: DocumentCursor) throws(CassetteError) -> (body: [UInt8], pacing: BodyPacing?) {
        var body: [UInt8] = []
        var parts: [BodyPacing.Part] = []
        var previous = Duration.zero
        for event in try cursor.elements() {
            let at = try event.required("at", expected: "the event's time in milliseconds after the head")
            let offset = try at.delay()
            guard offset >= previous else {
                throw at.error(expected: "a time no earlier than the event before's (\(previous))", found: "\(offset): the events go back in time")
            }
            previous = offset
            var text: [UInt8] = []
            var fields: [(name: String, value: String)] = []
            for (key, value) in try event.members() where key != "at" {
                switch key {
                case "text":
                    guard fields.isEmpty, text.isEmpty else { throw value.error(expected: "\"text\" alone beside \"at\"") }
                    text = Array(try value.string().utf8)
                case "json":
                    fields.append(("data", String(decoding: BodyStorage.jsonBytes(value), as: UTF8.self)))
                case let name where ServerSentEventText.plainNames.contains(name):
                    fields.append((name, try value.string()))
                default:
                    throw value.error(expected: "an event member: at, id, event, data, json, retry or text", found: "\"\(key)\"")
                }
            }
            if !fields.isEmpty {
                guard text.isEmpty else { throw event.error(expected: "\"text\" alone beside \"at\"") }
                text = Array(ServerSentEventText.text(of: fields).utf8)
            }
            body += text
            parts.append(BodyPacing.Part(offset: offset, byteCount: text.count))
        }
        return (body, BodyPacing(parts: parts))
    }
}
