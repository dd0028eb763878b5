import Tonearm

/// One cassette as stable text for git's `diff.<driver>.textconv` (`tonearm diff --textconv FILE`): a
/// block per track in key order, each giving the request's canonical form and what the track answers,
/// with what ``CassetteDiff`` leaves out left out here too. So reordered tracks or JSON members, new
/// dates and ids change nothing, and a changed value changes the one line of its JSON pointer.
package enum CassetteListing {
    /// The listing of `imported` under `options` (its configuration chosen as a diff against the file
    /// itself would choose it): tracks first, sorted by canonical form (then file order), then rules by
    /// pattern and method (then file order); blocks separated by a blank line.
    package static func text(of imported: CassetteImport, options: CassetteDiffOptions = CassetteDiffOptions()) -> String {
        let reading = ResponseReading(options: options, old: imported.configuration, new: imported.configuration)
        let canonicalizer = RequestCanonicalizer(reading.configuration)
        var blocks: [(canonical: [UInt8], position: Int, lines: [String])] = []
        for (position, track) in imported.cassette.tracks.enumerated() {
            let canonical = canonicalizer.canonicalize(track.request)
            var lines = [heading(of: canonical), "  key \(RequestKey(canonicalBytes: canonical.bytes).hex)"]
            // An empty body (every GET's) is left out: the key line already says all the key holds.
            lines += canonical.fields.filter { !headingLabels.contains($0.label) && !($0.label.hasPrefix(CanonicalLabel.bodyPrefix.description) && $0.value.isEmpty) }
                .map { "  request \($0.label) \(text(of: $0.value))" }
            lines += outcomeLines(track.outcome, reading: reading)
            if let delay = track.delay { lines.append("  delay \(DiffWording.milliseconds(delay))") }
            if let scenario = track.scenario { lines.append("  scenario \(scenario)") }
            blocks.append((canonical.bytes, position, lines))
        }
        let rules = imported.rules.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.pattern, lhs.element.method ?? ""), right = (rhs.element.pattern, rhs.element.method ?? "")
            if !left.0.utf8.elementsEqual(right.0.utf8) { return left.0.utf8.lexicographicallyPrecedes(right.0.utf8) }
            if !left.1.utf8.elementsEqual(right.1.utf8) { return left.1.utf8.lexicographicallyPrecedes(right.1.utf8) }
            return lhs.offset < rhs.offset
        }
        var sortedBlocks = blocks.sorted { lhs, rhs in
            lhs.canonical == rhs.canonical ? lhs.position < rhs.position : lhs.canonical.lexicographicallyPrecedes(rhs.canonical)
        }.map(\.lines)
        for (_, rule) in rules {
            var lines = ["rule \(Subjects.rule(rule, occurrence: 0))", "  matches the \(rule.target.rawValue)"]
            let counts: [(String, Int)] = [
                ("query", rule.query.count), ("header", rule.headers.count), ("cookie", rule.cookies.count), ("body", rule.body.count),
                ("multipart", rule.multipart.count), ("path parameter", rule.pathParameters.count), ("form parameter", rule.formParameters.count),
            ]
            let conditions = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            if !conditions.isEmpty { lines.append("  conditions: " + conditions.joined(separator: ", ")) }
            if let priority = rule.priority { lines.append("  priority \(priority)") }
            lines += outcomeLines(rule.outcome, reading: reading)
            if let delay = rule.delay { lines.append("  delay \(DiffWording.milliseconds(delay))") }
            if let scenario = rule.scenario { lines.append("  scenario \(scenario)") }
            sortedBlocks.append(lines)
        }
        return sortedBlocks.map { $0.map(DiffWording.printable).joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }

    /// The canonical form's lines the heading shows.
    private static let headingLabels: Set<String> = Set([CanonicalLabel.method, .url, .path, .query].map(\.description))

    /// `track GET https://host/path?a=1&b=2` from the canonical form, so the order of query
    /// parameters, and those the configuration ignores, change nothing.
    private static func heading(of canonical: CanonicalRequest) -> String {
        var parts = ["track"]
        var target = ""
        for (label, value) in canonical.fields where headingLabels.contains(label) {
            if label == CanonicalLabel.method.description {
                parts.append(text(of: value))
            } else if label == CanonicalLabel.query.description {
                if !value.isEmpty { target += "?" + text(of: value) }
            } else {
                target += text(of: value)
            }
        }
        if !target.isEmpty { parts.append(target) }
        return parts.joined(separator: " ")
    }

    /// Status, headers (ignored ones left out) and the body: a line per JSON leaf (`body /a/0: 1`), a
    /// line per text line, or size and hash; or the transport error.
    private static func outcomeLines(_ outcome: Track.Outcome, reading: ResponseReading) -> [String] {
        guard case .response(let response) = outcome else {
            if case .transportError(let error) = outcome { return ["  \(error)"] }
            return []
        }
        var lines = ["  status \(response.status)"]
        lines += reading.headers(response.headers).map { "  header \($0.name): \(DiffWording.quoted($0.values))" }
        if response.body.isEmpty { return lines }
        switch reading.body(response.body, contentType: response.headers.first(named: "Content-Type")) {
        case .json(let canonical):
            if let value = try? JSONValue(parsing: canonical) { appendLeaves(of: value, at: [], to: &lines) } else { lines.append("  body \(BodySummary(of: response.body))") }
        case .text(let text): lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { "  body |" + ($0.isEmpty ? "" : " \($0)") }
        case .binary: lines.append("  body \(BodySummary(of: response.body))")
        }
        return lines
    }

    /// A line per scalar, empty object and empty array, by pointer, in the value's (canonical) member order.
    private static func appendLeaves(of value: JSONValue, at tokens: [String], to lines: inout [String]) {
        switch value {
        case .object(let members) where !members.isEmpty:
            for member in members { appendLeaves(of: member.value, at: tokens + [member.key], to: &lines) }
        case .array(let elements) where !elements.isEmpty:
            for (index, element) in elements.enumerated() { appendLeaves(of: element, at: tokens + [String(index)], to: &lines) }
        default:
            lines.append("  body\(tokens.isEmpty ? "" : " \(JSONPointer(tokens: tokens))"): \(value.canonicalText)")
        }
    }

    /// A canonical line's value as text, or its size and hash when it is not readable text; `(empty)`
    /// rather than nothing, so no line of the listing ends in a space.
    private static func text(of value: [UInt8]) -> String {
        if value.isEmpty { return "(empty)" }
        return BodyStorage.readableText(value) ?? BodySummary(of: value).description
    }
}
