import Tonearm

/// How a miss is told to the client: a status (404 by default), a `Tonearm-Miss` header naming the
/// reason, and the miss report as the body, as text or, for `Accept: application/json`, as JSON.
enum MissResponse {
    /// The header naming why nothing answered.
    static let reasonHeader = "Tonearm-Miss"

    /// The reply to a request `miss` and `alsoMissed` (in the chain's order) looked up in vain: the
    /// first's reason and report, then the others' where any came near (a report naming no nearest
    /// track or rule says nothing the first does not, so only where it was looked is named).
    static func response(for miss: StageMiss, alsoMissed: [StageMiss], status: Int, acceptsJSON: Bool) -> Response {
        let reason = miss.report.reasonCode
        let telling = alsoMissed.filter { !$0.report.nearest.isEmpty || !$0.report.nearestRules.isEmpty }
        if acceptsJSON {
            var document = miss.report.jsonDocument(source: miss.lookedIn)
            if !alsoMissed.isEmpty, case .object(var members) = document {
                members.append(JSONMember(key: "alsoLookedIn", value: .array(alsoMissed.map { .string($0.lookedIn) })))
                if !telling.isEmpty {
                    members.append(JSONMember(key: "alsoMissed", value: .array(telling.map { $0.report.jsonDocument(source: $0.lookedIn) })))
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
}
