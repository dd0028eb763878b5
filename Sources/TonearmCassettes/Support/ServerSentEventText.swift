/// A `text/event-stream` body cut into its events, so a cassette can keep them readably (one JSON
/// object per event, its JSON data as JSON) and give back exactly the bytes recorded.
///
/// An event ends with a blank line (the stream's format, WHATWG HTML §9.2.6: lines end with CRLF, LF
/// or CR). An event is *plain* when it is written as Tonearm writes events back, `name: value` lines
/// ending in LF for the fields `id`, `event`, `data` and `retry`, each at most once except `data`, whose
/// lines are consecutive, then one LF. Anything else (comments, other fields, CR, a missing space, the
/// unfinished text at the end of a cut stream) is kept as its text.
enum ServerSentEventText {
    /// One event of a body.
    struct Event: Equatable {
        /// Where the event is in the body, its closing blank line included.
        var range: Range<Int>
        /// The event's fields in order, `data`'s lines joined with LF, when it is plain; `nil` when it is
        /// kept as text.
        var fields: [(name: String, value: String)]?

        static func == (lhs: Event, rhs: Event) -> Bool {
            lhs.range == rhs.range && lhs.fields?.map(\.name) == rhs.fields?.map(\.name)
                && lhs.fields?.map(\.value) == rhs.fields?.map(\.value)
        }
    }

    /// The field names a plain event may have.
    static let plainNames: Set<String> = ["id", "event", "data", "retry"]

    /// `body` cut after each blank line; the text after the last one, if any, is a last event of its
    /// own. `nil` when the body is not UTF-8.
    static func events(in body: [UInt8]) -> [Event]? {
        guard String(validating: body, as: UTF8.self) != nil else { return nil }
        var events: [Event] = []
        var eventStart = 0
        var lineStart = 0
        var index = 0
        while index < body.count {
            let byte = body[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            let lineIsEmpty = index == lineStart
            // CRLF is one line end.
            let next = byte == 0x0D && index + 1 < body.count && body[index + 1] == 0x0A ? index + 2 : index + 1
            if lineIsEmpty {
                events.append(event(body, eventStart..<next))
                eventStart = next
            }
            lineStart = next
            index = next
        }
        if eventStart < body.count { events.append(Event(range: eventStart..<body.count, fields: nil)) }
        return events
    }

    /// The event at `range` (which ends with its blank line), plain when it can be.
    private static func event(_ body: [UInt8], _ range: Range<Int>) -> Event {
        Event(range: range, fields: plainFields(body[range]))
    }

    /// The fields of `text`, when writing them back with ``text(of:)`` gives `text` exactly.
    private static func plainFields(_ text: ArraySlice<UInt8>) -> [(name: String, value: String)]? {
        guard !text.contains(0x0D), let string = String(validating: text, as: UTF8.self), string.hasSuffix("\n\n") else { return nil }
        var fields: [(name: String, value: String)] = []
        var previous: String?
        for line in string.dropLast(2).split(separator: "\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon])
            let rest = line[line.index(after: colon)...]
            guard plainNames.contains(name), rest.hasPrefix(" ") else { return nil }
            let value = String(rest.dropFirst())
            if name == "data", previous == "data", let last = fields.popLast() {
                fields.append((name, last.value + "\n" + value))
            } else {
                guard !fields.contains(where: { $0.name == name }) else { return nil }
                fields.append((name, value))
            }
            previous = name
        }
        guard !fields.isEmpty else { return nil }
        return fields
    }

    /// A plain event's text: each field as `name: value` and LF (data's lines each a `data:` line), then LF.
    static func text(of fields: [(name: String, value: String)]) -> String {
        var text = ""
        for field in fields {
            let lines = field.name == "data" ? field.value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [field.value]
            for line in lines { text += "\(field.name): \(line)\n" }
        }
        return text + "\n"
    }
}
