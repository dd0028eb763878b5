/// A miss report as JSON, the one form every place that reports a miss as data writes: the server's
/// JSON miss reply and `/__tonearm/misses`, and the miss attachments of a test's report.
extension MissReport {
    /// A short token for the reason: `not-recorded`, `exhausted`, `out-of-order`, `sequence-finished`,
    /// `no-rule-matched` or `custom`; for a chain, the first stage's (the tracks').
    package var reasonCode: String {
        Self.code(reason)
    }

    private static func code(_ reason: MissReason) -> String {
        if let stages = reason.stages { return stages.first.map(code) ?? MissReason.notRecorded.identifier }
        return reason.identifier
    }

    /// `{"error":"tonearm-miss","source","reason","reasonCode","method","url","key",
    /// "nearest":[{"position","name","method","url","differences","description"}],
    /// "nearestRules":[{"position","name","method","pattern","differences","description"}],"report"}`, a
    /// nearest track's `name` (a rule's `method`) left out when it has none, and `nearestRules` when no
    /// rule was compared; `source` names what was looked in.
    package func jsonDocument(source: String) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "error", value: .string("tonearm-miss")),
            JSONMember(key: "source", value: .string(source)),
            JSONMember(key: "reason", value: .string(reason.description)),
            JSONMember(key: "reasonCode", value: .string(reasonCode)),
            JSONMember(key: "method", value: .string(request.method)),
            JSONMember(key: "url", value: .string(request.url)),
            JSONMember(key: "key", value: .string(key.hex)),
            JSONMember(key: "nearest", value: .array(nearest.map { near in
                var track: [JSONMember] = [JSONMember(key: "position", value: .number(String(near.position)))]
                if let name = near.track.name { track.append(JSONMember(key: "name", value: .string(name))) }
                track += [
                    JSONMember(key: "method", value: .string(near.track.request.method)),
                    JSONMember(key: "url", value: .string(near.track.request.url)),
                    JSONMember(key: "differences", value: .array(near.differences.map { .string($0.description) })),
                    JSONMember(key: "description", value: .string(near.description)),
                ]
                return .object(track)
            })),
        ]
        // Only when rules were compared, so the document of a miss without rules keeps its shape.
        if !nearestRules.isEmpty {
            members.append(JSONMember(key: "nearestRules", value: .array(nearestRules.map { near in
                var rule: [JSONMember] = [
                    JSONMember(key: "position", value: .number(String(near.position))),
                    JSONMember(key: "name", value: .string(near.rule.name)),
                ]
                if let method = near.rule.method { rule.append(JSONMember(key: "method", value: .string(method))) }
                rule += [
                    JSONMember(key: "pattern", value: .string(near.rule.pattern)),
                    JSONMember(key: "differences", value: .array(near.differences.map { .string($0.description) })),
                    JSONMember(key: "description", value: .string(near.description)),
                ]
                return .object(rule)
            })))
        }
        members.append(JSONMember(key: "report", value: .string(description)))
        return .object(members)
    }
}
