extension CassetteDiff {
    /// The diff for a terminal: a line per changed, added or removed track and per flag (a changed
    /// track's parts indented below it), then the counts. Recorded text is printed with its control
    /// characters escaped; `colors` marks the first word of each line with ANSI colours, which the
    /// command asks for only when standard output is a terminal.
    package func textReport(old: String, new: String, colors: Bool = false) -> String {
        func word(_ text: String, _ color: String) -> String {
            colors ? "\u{1B}[\(color)m\(text)\u{1B}[0m" : text
        }
        var lines: [String] = []
        for change in changed {
            lines.append(word("changed", "33") + " " + DiffWording.printable(change.subject.description))
            lines += DiffWording.lines(of: change).map { "    " + DiffWording.printable($0) }
        }
        for track in added {
            lines.append(word("added  ", "32") + " " + DiffWording.printable("\(track.subject): \(DiffWording.summary(of: track.outcome))"))
        }
        for track in removed {
            lines.append(word("removed", "31") + " " + DiffWording.printable("\(track.subject): \(DiffWording.summary(of: track.outcome))"))
        }
        for flag in flags {
            lines.append(
                word("flag   ", "35") + " " + DiffWording.printable("[\(flag.kind)] \(flag.subject): \(DiffWording.message(of: flag))"))
        }
        lines.append(DiffWording.printable("\(old) → \(new): ") + DiffWording.summary(of: self))
        return lines.joined(separator: "\n") + "\n"
    }
}
