import TonearmWorkloads

extension RuleBenchReport {
    /// What `tonearm bench --rules` measures, printed before the first size is done.
    static func heading(_ bench: RuleBench) -> String {
        let missPercent = Int((bench.missShare * 100).rounded())
        return """
            Tonearm bench: generated rule sets (seed \(bench.seed)), \(bench.requests) requests each, \(missPercent) % built to miss
              engine: the rules compiled and indexed, each request matched once
              naive: every rule in turn with Swift Regex (as WireMock and OHHTTPStubs match), on the first
                \(bench.naiveSample) requests, its answers compared with the engine's

            """ + columns(["rules", "load", "engine p50", "engine p99", "naive p50", "naive / engine", "agreement"])
    }

    /// One size's line of the table.
    static func line(_ row: RuleBenchRow) -> String {
        let naive: [String]
        if let summary = row.naive {
            naive = [
                QuickBenchReport.duration(summary.p50Nanoseconds),
                row.naiveOverEngine.map { QuickBenchReport.grouped(Int($0.rounded())) + "x" } ?? "-",
                row.disagreements == 0
                    ? "\(row.compared) of \(row.compared) agree"
                    : "\(row.disagreements) of \(row.compared) DISAGREE",
            ]
        } else {
            naive = ["skipped", "-", "-"]
        }
        var text = columns([
            QuickBenchReport.grouped(row.ruleCount), QuickBenchReport.duration(row.loadMilliseconds * 1e6),
            QuickBenchReport.duration(row.engine.p50Nanoseconds), QuickBenchReport.duration(row.engine.p99Nanoseconds),
        ] + naive)
        if let reason = row.naiveSkipped { text += "\n    naive skipped at \(QuickBenchReport.grouped(row.ruleCount)): \(reason)" }
        return text
    }

    /// The closing lines.
    var summary: String {
        let compared = rows.reduce(0) { $0 + $1.compared }
        let verdict = !agrees
            ? "  the engine and the naive matcher DISAGREE: a bug to report"
            : compared == 0
            ? "  the naive matcher was left out at every size: no answer compared"
            : "  the engine and the naive matcher chose the same rule for every compared request"
        return "\n" + verdict + "\n  p50/p99: time per request, one at a time; load: compiling and indexing the rules."
    }

    /// Cells padded to fixed widths: the first left-aligned, the others right-aligned.
    private static func columns(_ cells: [String]) -> String {
        let widths = [8, 9, 11, 11, 10, 15, 22]
        return "  " + cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: max(0, widths[min(column, widths.count - 1)] - cell.count))
            return column == 0 ? cell + padding : padding + cell
        }.joined(separator: "  ")
    }
}
