import Tonearm

/// How a miss is told to the client: a status (404 by default), a `Tonearm-Miss` header naming the
/// reason, and the miss report as the body, as text or, for `Accept: application/json`, as JSON.
enum MissResponse {
    /// The header naming why nothing answered.
    static let reasonHeader = "Tonearm-Miss"

    /// A short token for the reason: `not-recorded`, `exhausted`, `out-of-order`, `sequence-finished`,
    /// `no-rule-matched` or `custom`; for a chain, the first stage's (the tracks').
    static func token(_ reason: MissReason) -> String {
        if let stages = reason.stages { return stages.first.map(token) ?? MissReason.notRecorded.identifier }
        return reason.identifier
    }

    /// The reply to a request `miss` and `alsoMissed` (in the chain's order) looked up in vain: the
    /// first's reason and report, then the others' where any came near (a report naming no nearest
    /// track or rule says nothing the first does not, so only where it was looked is named).
    static func response(for miss: StageMiss, alsoMissed: [StageMiss], status: Int, acceptsJSON: Bool) -> Response {
        let reason = token(miss.report.reason)
        let telling = alsoMissed.filter { !$0.report.nearest.isEmpty || !$0.report.nearestRules.isEmpty }
        if acceptsJSON {
            var document = document(for: miss.report, source: miss.lookedIn)
            if !alsoMissed.isEmpty, case .object(var members) = document {
                members.append(JSONMember(key: "alsoLookedIn", value: .array(alsoMissed.map { .string($0.lookedIn) })))
                if !telling.isEmpty {
                    members.append(JSONMember(key: "alsoMissed", value: .array(telling.map { Self.document(for: $0.report, source: $0.lookedIn) })))
                }
                document = .object(members)
            }
            return Response(status: status, headers: [
                HeaderField("Content-Type", "application/json"), HeaderField(reasonHeader, reason),
            ], body: document.bytes)
        }
        var text = "Tonearm: no recorded answer in \(miss.lookedIn)"
        for other in alsoMissed { text += ", nor in \(other.lookedIn)" }
        text += "\n\(miss.report)\n"
        for other in telling { text += "In \(other.lookedIn):\n\(other.report)\n" }
        return Response(status: status, headers: [
            HeaderField("Content-Type", "text/plain; charset=utf-8"), HeaderField(reasonHeader, reason),
        ], body: text)
    }

    /// Whether the client asked for JSON.
    static func acceptsJSON(_ headers: [HeaderField]) -> Bool {
        headers.values(named: "Accept").contains { $0.lowercased().contains("json") }
    }

    /// A miss report as JSON: `{"error":"tonearm-miss","source","reason","reasonCode","method","url","key",
    /// "nearest":[{"position","name","method","url","differences","description"}],
    /// "nearestRules":[{"position","name","method","pattern","differences","description"}],"report"}`, a
    /// nearest track's `name` (a rule's `method`) left out when it has none, and `nearestRules` when no
    /// rule was compared.
    static func document(for report: MissReport, source: String) -> JSONValue {
        .object([
            "error": .string("tonearm-miss"),
            "source": .string(source),
            "reason": .string(report.reason.description),
            "reasonCode": .string(token(report.reason)),
            "method": .string(report.request.method),
            "url": .string(report.request.url),
            "key": .string(report.key.hex),
            "nearest": .array(report.nearest.map { near in
                .object([
                    "position": .integer(near.position),
                    "name": near.track.name.map(JSONValue.string),
                    "method": .string(near.track.request.method),
                    "url": .string(near.track.request.url),
                    "differences": .array(near.differences.map { .string($0.description) }),
                    "description": .string(near.description),
                ])
            }),
            // Only when rules were compared, so the document of a server without rules keeps its shape.
            "nearestRules": report.nearestRules.isEmpty ? nil : .array(report.nearestRules.map { near in
                .object([
                    "position": .integer(near.position),
                    "name": .string(near.rule.name),
                    "method": near.rule.method.map(JSONValue.string),
                    "pattern": .string(near.rule.pattern),
                    "differences": .array(near.differences.map { .string($0.description) }),
                    "description": .string(near.description),
                ])
            }),
            "report": .string(report.description),
        ])
    }
}
