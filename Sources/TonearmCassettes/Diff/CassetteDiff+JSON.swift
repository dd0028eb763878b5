import Tonearm

extension CassetteDiff {
    /// The version of ``jsonReport(old:new:)``'s shape; raised when a member changes meaning or goes.
    /// New members may appear without it changing.
    package static let jsonReportVersion = 1

    /// The diff for tools, pretty-printed JSON whose members come in a fixed order (docs/diff-section.md
    /// describes the shape): `diffFormatVersion`, `old`, `new`, `isEmpty`, `summary`, then the `changed`,
    /// `added` and `removed` tracks and the `flags`, each naming its `subject`. Every JSON difference is
    /// listed, without the cap the text and Markdown reports apply.
    package func jsonReport(old: String, new: String) -> [UInt8] {
        let summary: [(String, JSONOutput)] = [
            ("changed", .int(changed.count)), ("added", .int(added.count)), ("removed", .int(removed.count)),
            ("unchanged", .int(unchangedCount)), ("flags", .int(flags.count)), ("newFlags", .int(flags.count { $0.isNew })),
        ]
        return JSONOutput.object([
            ("diffFormatVersion", .int(Self.jsonReportVersion)),
            ("old", .string(old)), ("new", .string(new)),
            ("isEmpty", .bool(isEmpty)),
            ("summary", .object(summary)),
            ("changed", .array(changed.map(Self.output))),
            ("added", .array(added.map(Self.output))),
            ("removed", .array(removed.map(Self.output))),
            ("flags", .array(flags.map { flag in
                .object([
                    ("kind", .string(flag.kind.rawValue)), ("isNew", .bool(flag.isNew)), ("subject", Self.output(flag.subject)),
                    ("message", .string(flag.message)),
                ])
            })),
        ]).prettyPrinted()
    }

    private static func output(_ subject: DiffSubject) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("kind", .string(subject.kind.rawValue)), ("method", subject.method.map(JSONOutput.string) ?? .null),
            ("target", .string(subject.target)),
        ]
        if let key = subject.key { members.append(("key", .string(key.hex))) }
        members.append(("occurrence", .int(subject.occurrence)))
        if let name = subject.name { members.append(("name", .string(name))) }
        return .object(members)
    }

    private static func output(_ track: UnpairedTrack) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("subject", output(track.subject)), ("position", .int(track.position))]
        switch track.outcome {
        case .response(let response):
            members.append(("status", .int(response.status)))
            members.append(("body", output(BodySummary(of: response.body))))
        case .transportError(let error):
            members.append(("transportError", .string(error.identifier)))
        }
        return .object(members)
    }

    private static func output(_ change: TrackChange) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("subject", output(change.subject)), ("oldPosition", .int(change.oldPosition)), ("newPosition", .int(change.newPosition)),
        ]
        if let status = change.status { members.append(("status", pair(.int(status.old), .int(status.new)))) }
        if let error = change.transportError {
            members.append(("transportError", pair(error.old.map { .string($0.identifier) } ?? .null, error.new.map { .string($0.identifier) } ?? .null)))
        }
        if !change.headers.isEmpty {
            members.append(("headers", .array(change.headers.map { header in
                .object([
                    ("name", .string(header.name)), ("old", .inlineArray(header.old.map(JSONOutput.string))),
                    ("new", .inlineArray(header.new.map(JSONOutput.string))),
                ])
            })))
        }
        if let body = change.body { members.append(("body", output(body))) }
        if let delay = change.delay { members.append(("delayMilliseconds", pair(milliseconds(delay.old), milliseconds(delay.new)))) }
        if let scenario = change.scenario {
            members.append(("scenario", pair(scenario.old.map { .string($0.description) } ?? .null, scenario.new.map { .string($0.description) } ?? .null)))
        }
        if let priority = change.priority {
            members.append(("priority", pair(priority.old.map(JSONOutput.int) ?? .null, priority.new.map(JSONOutput.int) ?? .null)))
        }
        return .object(members)
    }

    private static func output(_ body: BodyChange) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("reading", .string(body.reading.rawValue)), ("old", output(body.old)), ("new", output(body.new))]
        if body.reading == .json {
            members.append(("differences", .array(body.jsonDifferences.map { difference in
                var parts: [(String, JSONOutput)] = [("pointer", .string(difference.pointer))]
                switch difference.kind {
                case .added(let value): parts += [("change", .string("added")), ("new", value.output)]
                case .removed(let value): parts += [("change", .string("removed")), ("old", value.output)]
                case .changed(let from, let to): parts += [("change", .string("changed")), ("old", from.output), ("new", to.output)]
                }
                return .object(parts)
            })))
        }
        if let line = body.firstDifferingLine {
            members.append(("firstDifferingLine", .object([
                ("line", .int(line.line)), ("old", line.old.map(JSONOutput.string) ?? .null), ("new", line.new.map(JSONOutput.string) ?? .null),
                ("oldLineCount", .int(line.oldLineCount)), ("newLineCount", .int(line.newLineCount)),
            ])))
        }
        return .object(members)
    }

    private static func output(_ summary: BodySummary) -> JSONOutput {
        .object([("bytes", .int(summary.byteCount)), ("xxh3", .string(summary.hashHex))])
    }

    private static func pair(_ old: JSONOutput, _ new: JSONOutput) -> JSONOutput {
        .object([("old", old), ("new", new)])
    }

    private static func milliseconds(_ delay: Duration?) -> JSONOutput {
        delay.flatMap(RecordedLimits.milliseconds).map(JSONOutput.int) ?? .null
    }
}

extension JSONValue {
    /// The value as it is written into a report: its canonical text, re-indented in place.
    fileprivate var output: JSONOutput { .json(Array(canonicalText.utf8)) }
}
