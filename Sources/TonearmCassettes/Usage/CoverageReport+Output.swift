import Foundation

extension CoverageReport {
    /// The report for a terminal: what went unused, file by file, then a summary line. Paths under
    /// `base` are shown relative to it.
    public func text(relativeTo base: String? = nil) -> String {
        var lines: [String] = []
        for file in files where file.hasUnused || file.changed != nil {
            let name = Self.display(file.path, relativeTo: base)
            guard file.loaded else {
                lines.append("\(name): never loaded by the run")
                continue
            }
            if let changed = file.changed {
                lines.append("\(name): usage not matched to tracks, \(changed)")
                continue
            }
            var parts: [String] = []
            if !file.unusedTracks.isEmpty { parts.append("\(file.unusedTracks.count) of \(file.trackCount) track(s) never replayed") }
            if !file.unusedRules.isEmpty { parts.append("\(file.unusedRules.count) of \(file.ruleCount) rule(s) never answered") }
            lines.append("\(name): " + parts.joined(separator: ", "))
            for entry in file.unusedTracks { lines.append("  track #\(entry.position) \(entry.summary)") }
            for entry in file.unusedRules { lines.append("  \(entry.summary) (#\(entry.position))") }
        }
        let unloaded = files.filter { !$0.loaded }.count
        let tracks = files.reduce(0) { $0 + $1.unusedTracks.count }, rules = files.reduce(0) { $0 + $1.unusedRules.count }
        let withUnused = files.filter { $0.loaded && (!$0.unusedTracks.isEmpty || !$0.unusedRules.isEmpty) }.count
        lines.append(
            "\(files.count) cassette file(s), \(recordCount) usage record(s): \(unloaded) never loaded, "
                + "\(tracks) track(s) and \(rules) rule(s) never used in \(withUnused) file(s)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON for tools:
    /// `{"records": N, "files": [{"path", "loaded", "loads", "tracks", "rules", "unusedTracks": [{"position", "summary"}], "unusedRules": [...], "changed"?}], "notCassettes": [...], "unused": bool}`.
    public func json() -> [UInt8] {
        func entries(_ list: [UnusedEntry]) -> JSONOutput {
            .array(list.map { .object([("position", .int($0.position)), ("summary", .string($0.summary))]) })
        }
        let files = files.map { file in
            var members: [(String, JSONOutput)] = [
                ("path", .string(file.path)), ("loaded", .bool(file.loaded)), ("loads", .int(file.loads)),
                ("tracks", .int(file.trackCount)), ("rules", .int(file.ruleCount)),
                ("unusedTracks", entries(file.unusedTracks)), ("unusedRules", entries(file.unusedRules)),
            ]
            if let changed = file.changed { members.append(("changed", .string(changed))) }
            return JSONOutput.object(members)
        }
        return JSONOutput.object([
            ("records", .int(recordCount)), ("files", .array(files)), ("notCassettes", .array(notCassettes.map { .string($0) })),
            ("unused", .bool(hasUnused)),
        ]).prettyPrinted()
    }

    /// `path` relative to `base` when it lies under it, else as it is.
    package static func display(_ path: String, relativeTo base: String?) -> String {
        guard let base, !base.isEmpty else { return path }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
