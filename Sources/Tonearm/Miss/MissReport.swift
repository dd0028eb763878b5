/// Why a request got no answer: the strategy's reason, the request's canonical form, and the closest
/// recorded tracks with exactly which fields differ. Readable as text (`description`) and as data.
public struct MissReport: Sendable, CustomStringConvertible {
    /// The request that missed.
    public var request: Request
    /// Its canonical form.
    public var canonical: CanonicalRequest
    /// Its key.
    public var key: RequestKey
    /// The strategy's reason.
    public var reason: MissReason
    /// Up to three closest tracks, closest first.
    public var nearest: [NearMiss]
    /// How many candidate tracks were compared to find `nearest`.
    public var candidatesCompared: Int
    /// Up to three closest stub rules, closest first, with the conditions the request does not meet;
    /// empty when the engine has no rules.
    public var nearestRules: [RuleNearMiss] = []
    /// How many rules were compared to find `nearestRules`.
    public var rulesCompared = 0

    /// The full report, ready to print in a test failure.
    public var description: String {
        var lines = [
            "No match for \(canonical.method) \(request.url)",
            "  reason: \(reason)",
            "  key: \(key.hex)",
            "  canonical form:",
        ]
        lines += canonical.description.split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map { "    " + Self.abbreviated($0) }
        lines += canonical.notes.map { "  note: \($0)" }
        if nearest.isEmpty {
            if nearestRules.isEmpty { lines.append("  no recorded track shares this request's host") }
        } else {
            lines.append("  closest tracks (of \(candidatesCompared) compared):")
            for (rank, near) in nearest.enumerated() {
                lines.append("  \(rank + 1). \(near)")
            }
        }
        if !nearestRules.isEmpty {
            lines.append("  closest rules (of \(rulesCompared) compared):")
            for (rank, near) in nearestRules.enumerated() {
                lines.append("  \(rank + 1). \(near)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Long canonical lines (big bodies) are cut so the differences stay readable; `tonearm diff` cuts
    /// the lines it quotes the same way.
    package static func abbreviated(_ line: Substring, limit: Int = 160) -> String {
        guard line.count > limit else { return String(line) }
        return line.prefix(limit) + "… (\(line.utf8.count) bytes in all)"
    }
}
