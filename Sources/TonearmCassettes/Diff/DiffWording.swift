import Tonearm

/// How the text and Markdown renderings word a diff's parts, so both say the same thing the same way
/// (the Markdown one puts these lines in code blocks).
enum DiffWording {
    /// The most lines shown for one changed track's body; JSON output lists every difference.
    static let maximumBodyLines = 100

    /// The lines saying how `change` differs, one a part: status or outcome, headers, body, delay,
    /// scenario, priority.
    static func lines(of change: TrackChange) -> [String] {
        var lines: [String] = []
        if let status = change.status { lines.append("status: \(status.old) → \(status.new)") }
        if let outcome = change.transportError {
            lines.append("outcome: \(outcomeName(outcome.old)) → \(outcomeName(outcome.new))")
        }
        for header in change.headers {
            switch (header.old.isEmpty, header.new.isEmpty) {
            case (true, _): lines.append("header \(header.name): added \(quoted(header.new))")
            case (_, true): lines.append("header \(header.name): removed \(quoted(header.old))")
            default: lines.append("header \(header.name): \(quoted(header.old)) → \(quoted(header.new))")
            }
        }
        if let body = change.body { lines += bodyLines(body) }
        if let delay = change.delay { lines.append("delay: \(milliseconds(delay.old)) → \(milliseconds(delay.new))") }
        if let scenario = change.scenario {
            lines.append("scenario: \(scenario.old.map(\.description) ?? "none") → \(scenario.new.map(\.description) ?? "none")")
        }
        if let priority = change.priority {
            lines.append("priority: \(priority.old.map(String.init) ?? "default") → \(priority.new.map(String.init) ?? "default")")
        }
        return lines
    }

    /// `body /items/3/price: 12.5 → 13` for each JSON difference (at most ``maximumBodyLines``), the
    /// first differing line of a text body, or sizes and hashes.
    static func bodyLines(_ body: BodyChange) -> [String] {
        switch body.reading {
        case .json:
            var lines = body.jsonDifferences.prefix(maximumBodyLines).map { difference -> String in
                let place = difference.pointer.isEmpty ? "body" : "body \(difference.pointer)"
                switch difference.kind {
                case .added(let value): return "\(place): added \(JSONDifference.abbreviated(value))"
                case .removed(let value): return "\(place): removed \(JSONDifference.abbreviated(value))"
                case .changed(let from, let to): return "\(place): \(JSONDifference.abbreviated(from)) → \(JSONDifference.abbreviated(to))"
                }
            }
            let more = body.jsonDifferences.count - maximumBodyLines
            if more > 0 { lines.append("body: \(more) more difference(s) (--format json lists them all)") }
            return lines
        case .text:
            guard let line = body.firstDifferingLine else { return ["body: \(body.old) → \(body.new)"] }
            let counts = line.oldLineCount == line.newLineCount ? "" : " (\(line.oldLineCount) → \(line.newLineCount) lines)"
            return ["body line \(line.line): \(quoted(line.old)) → \(quoted(line.new))\(counts)"]
        default:
            return ["body: \(body.old) → \(body.new)"]
        }
    }

    /// `status 201, 20 bytes` or `transport error: timedOut`: what a track only one side has answers.
    static func summary(of outcome: Track.Outcome) -> String {
        switch outcome {
        case .response(let response): "status \(response.status), \(response.body.count) bytes"
        case .transportError(let error): error.description
        }
    }

    /// `1 changed, 2 added, 0 removed, 9 unchanged; 1 flag (1 new)`, or `no differences (9 unchanged)`.
    static func summary(of diff: CassetteDiff) -> String {
        let newFlags = diff.flags.count { $0.isNew }
        let flags = diff.flags.isEmpty ? "" : "; \(diff.flags.count) flag(s) (\(newFlags) new)"
        guard diff.hasDifferences else { return "no differences (\(diff.unchangedCount) unchanged)" + flags }
        return "\(diff.changed.count) changed, \(diff.added.count) added, \(diff.removed.count) removed, \(diff.unchangedCount) unchanged" + flags
    }

    /// A flag's message, and that it is not new when the old cassette had it.
    static func message(of flag: DiffFlag) -> String {
        flag.message + (flag.isNew ? "" : " (already in the old cassette)")
    }

    /// `text` with control characters (escape sequences a terminal would obey, line breaks) written as
    /// `\u{1B}`, so recorded text such as a URL prints on one line and as itself.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func outcomeName(_ error: TransportError?) -> String {
        error?.description ?? "response"
    }

    static func milliseconds(_ delay: Duration?) -> String {
        guard let delay else { return "none" }
        return RecordedLimits.milliseconds(delay).map { "\($0) ms" } ?? "\(delay)"
    }

    /// Values as JSON strings (escapes make spaces and control characters visible), cut when long;
    /// several values joined by commas; `none` for a missing line.
    static func quoted(_ values: [String]) -> String {
        values.map { quoted($0) }.joined(separator: ", ")
    }

    private static func quoted(_ value: String?) -> String {
        guard let value else { return "none" }
        return MissReport.abbreviated(Substring(String(decoding: CanonicalString.quoted(value), as: UTF8.self)))
    }
}
