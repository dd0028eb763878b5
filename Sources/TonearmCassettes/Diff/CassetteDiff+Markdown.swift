extension CassetteDiff {
    /// The most changed tracks shown in detail, and added or removed ones listed, in a Markdown report:
    /// a review comment has a size limit, and beyond this many the JSON report is the one to read.
    static let markdownListLimit = 100

    /// The diff for a review comment: a table of counts, then a section each for changed (each track's
    /// parts in a code block), added and removed tracks and the flags. Every piece of recorded content
    /// (URLs, header values, bodies, file names) is in a code span or block, or escaped, so it renders
    /// as text and never as markup.
    package func markdownReport(old: String, new: String) -> String {
        var lines = ["### Cassette diff: \(MarkdownText.code(old)) → \(MarkdownText.code(new))", ""]
        let newFlags = flags.count { $0.isNew }
        lines += [
            "| changed | added | removed | unchanged | flags (new) |",
            "|--:|--:|--:|--:|--:|",
            "| \(changed.count) | \(added.count) | \(removed.count) | \(unchangedCount) | \(flags.count) (\(newFlags)) |",
        ]
        if !changed.isEmpty {
            lines += ["", "#### Changed"]
            for change in changed.prefix(Self.markdownListLimit) {
                lines += ["", "##### \(MarkdownText.code(change.subject.description))", ""]
                lines += MarkdownText.block(DiffWording.lines(of: change))
            }
            lines += Self.more(changed.count, "changed tracks")
        }
        for (title, tracks) in [("Added", added), ("Removed", removed)] where !tracks.isEmpty {
            lines += ["", "#### \(title)", ""]
            lines += tracks.prefix(Self.markdownListLimit).map { track in
                "- \(MarkdownText.code(track.subject.description)): \(MarkdownText.escaped(DiffWording.summary(of: track.outcome)))"
            }
            lines += Self.more(tracks.count, "\(title.lowercased()) tracks")
        }
        if !flags.isEmpty {
            lines += ["", "#### Flags", ""]
            lines += flags.prefix(Self.markdownListLimit).map { flag in
                "- **\(flag.kind)** \(MarkdownText.code(flag.subject.description)): \(MarkdownText.escaped(DiffWording.message(of: flag)))"
            }
            lines += Self.more(flags.count, "flags")
        }
        if !hasDifferences { lines += ["", MarkdownText.escaped(DiffWording.summary(of: self))] }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func more(_ count: Int, _ what: String) -> [String] {
        count > markdownListLimit ? ["", "… and \(count - markdownListLimit) more \(what) (`tonearm diff --format json` lists them all)."] : []
    }
}
