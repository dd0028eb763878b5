import TonearmWorkloads

extension QuickBenchReport {
    /// The report as an aligned text table, headed by `source` (what was replayed).
    func table(source: String) -> String {
        var lines = [
            "Tonearm bench: \(source)",
            "  \(trackCount) tracks, \(distinctKeyCount) distinct keys, loaded and indexed in "
                + Self.duration(loadMilliseconds * 1e6) + ", index \(Int(indexBytesPerTrack.rounded())) bytes per track",
        ]
        if baseline.count > 0 {
            lines.append("  linear-scan baseline (how Vinyl, DVR and Replay match): p50 "
                + Self.duration(baseline.p50Nanoseconds) + " per match over \(baseline.count) requests")
        }
        lines.append("")
        let header = ["strategy", "requests", "hits", "p50", "p99", "matches/s", "vs baseline"]
        var rows = [header]
        for row in self.rows {
            rows.append([
                row.kind == "hit" ? row.name : "\(row.name) (\(row.kind))",
                "\(row.latency.count)", "\(row.hits)",
                Self.duration(row.latency.p50Nanoseconds), Self.duration(row.latency.p99Nanoseconds),
                Self.grouped(Int(row.matchesPerSecond.rounded())),
                row.ratioToBaseline.map { Self.grouped(Int($0.rounded())) + "x faster" } ?? "-",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                // Names left-aligned, numbers right-aligned, as in any table of measurements.
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }
            lines.append("  " + cells.joined(separator: "  "))
        }
        lines.append("")
        lines.append("  p50/p99: per-match latency, one request at a time; matches/s: from the mean latency.")
        return lines.joined(separator: "\n")
    }

    /// `850 ns`, `1.2 µs`, `3.4 ms`, `1.20 s`.
    static func duration(_ nanoseconds: Double) -> String {
        func decimal(_ value: Double) -> String {
            value >= 100 ? "\(Int(value.rounded()))" : "\(Double(Int((value * 10).rounded())) / 10)"
        }
        if nanoseconds < 1_000 { return "\(Int(nanoseconds.rounded())) ns" }
        if nanoseconds < 1_000_000 { return decimal(nanoseconds / 1_000) + " µs" }
        if nanoseconds < 1_000_000_000 { return decimal(nanoseconds / 1_000_000) + " ms" }
        return decimal(nanoseconds / 1_000_000_000) + " s"
    }

    /// `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}
