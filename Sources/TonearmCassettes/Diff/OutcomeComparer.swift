import Tonearm

/// Compares what two paired tracks (or rules) answer: status or transport error, headers, body, delay.
struct OutcomeComparer {
    let reading: ResponseReading

    /// `change` with every part where `new` answers differently from `old` set.
    func compare(_ old: Track.Outcome, _ new: Track.Outcome, into change: inout TrackChange) {
        switch (old, new) {
        case (.response(let old), .response(let new)):
            if old.status != new.status { change.status = ValueChange(old: old.status, new: new.status) }
            change.headers = headerChanges(old.headers, new.headers)
            change.body = bodyChange(
                old.body, contentType: old.headers.first(named: "Content-Type"),
                new.body, contentType: new.headers.first(named: "Content-Type"))
        case (.transportError(let old), .transportError(let new)):
            if old != new { change.transportError = ValueChange(old: old, new: new) }
        case (.response, .transportError(let new)):
            change.transportError = ValueChange(old: nil, new: new)
        case (.transportError(let old), .response):
            change.transportError = ValueChange(old: old, new: nil)
        }
    }

    /// The headers whose values differ, by lowercased name; ignored headers left out.
    func headerChanges(_ old: [HeaderField], _ new: [HeaderField]) -> [HeaderChange] {
        if old == new { return [] }
        let oldHeaders = reading.headers(old), newHeaders = reading.headers(new)
        var changes: [HeaderChange] = []
        var i = 0, j = 0
        // Both lists are sorted by name: walk them together.
        while i < oldHeaders.count || j < newHeaders.count {
            if j == newHeaders.count || i < oldHeaders.count && oldHeaders[i].name.utf8.lexicographicallyPrecedes(newHeaders[j].name.utf8) {
                changes.append(HeaderChange(name: oldHeaders[i].name, old: oldHeaders[i].values, new: []))
                i += 1
            } else if i == oldHeaders.count || oldHeaders[i].name != newHeaders[j].name {
                changes.append(HeaderChange(name: newHeaders[j].name, old: [], new: newHeaders[j].values))
                j += 1
            } else {
                if !oldHeaders[i].values.elementsEqual(newHeaders[j].values, by: { $0.utf8.elementsEqual($1.utf8) }) {
                    changes.append(HeaderChange(name: oldHeaders[i].name, old: oldHeaders[i].values, new: newHeaders[j].values))
                }
                i += 1
                j += 1
            }
        }
        return changes
    }

    /// How the bodies differ, or `nil` when they are the same bytes or the same JSON once the ignored
    /// locations are left out.
    func bodyChange(_ old: [UInt8], contentType oldType: String?, _ new: [UInt8], contentType newType: String?) -> BodyChange? {
        if old == new { return nil }
        let summaries = (old: BodySummary(of: old), new: BodySummary(of: new))
        switch (reading.body(old, contentType: oldType), reading.body(new, contentType: newType)) {
        case (.json(let oldCanonical), .json(let newCanonical)):
            if oldCanonical == newCanonical { return nil }
            // Canonical text parses (it was written from a parse), so the trees exist; only differing
            // bodies pay for them.
            guard let oldValue = try? JSONValue(parsing: oldCanonical), let newValue = try? JSONValue(parsing: newCanonical) else {
                return BodyChange(reading: .binary, old: summaries.old, new: summaries.new)
            }
            let differences = oldValue.differences(to: newValue)
            if differences.isEmpty { return nil }
            return BodyChange(reading: .json, jsonDifferences: differences, old: summaries.old, new: summaries.new)
        case (.binary, _), (_, .binary):
            return BodyChange(reading: .binary, old: summaries.old, new: summaries.new)
        default:
            // Text on both sides, or JSON beside text: the bytes differ, so compare them as text.
            guard let oldText = BodyStorage.readableText(old), let newText = BodyStorage.readableText(new) else {
                return BodyChange(reading: .binary, old: summaries.old, new: summaries.new)
            }
            return BodyChange(
                reading: .text, firstDifferingLine: Self.firstDifferingLine(oldText, newText), old: summaries.old, new: summaries.new)
        }
    }

    /// The first line where `old` and `new` differ, compared byte for byte (Swift's `==` would call
    /// canonically equivalent text equal).
    static func firstDifferingLine(_ old: String, _ new: String) -> TextLineChange? {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let oldLine = index < oldLines.count ? oldLines[index] : nil
            let newLine = index < newLines.count ? newLines[index] : nil
            if let oldLine, let newLine, oldLine.utf8.elementsEqual(newLine.utf8) { continue }
            return TextLineChange(
                line: index + 1, old: oldLine.map(String.init), new: newLine.map(String.init),
                oldLineCount: oldLines.count, newLineCount: newLines.count)
        }
        return nil
    }
}
