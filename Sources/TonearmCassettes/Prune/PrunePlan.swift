import Foundation
import Tonearm

/// What `tonearm prune` would change, worked out in full (every edited file read back and checked)
/// before anything is written: the tracks and rules a run never used taken out of the files it loaded,
/// each file keeping its format, layout and the order of what stays; and, only when asked, the files
/// the run never loaded deleted.
///
/// Pruning works on files whose entries are one list: native, HAR, DVR, Vinyl, Hoverfly and JSON VCR
/// cassettes, vcrpy and Ruby VCR YAML, and rule files (JSON or YAML) holding only pattern rules or only
/// exact stubs. Other files are listed in ``skipped`` with the reason.
public struct PrunePlan: Sendable {
    /// One file's change.
    public struct Change: Sendable, Hashable {
        /// The file, by standard path.
        public var path: String
        /// The positions of the tracks removed (in the file's tracks).
        public var removedTracks: [Int]
        /// The positions of the rules removed.
        public var removedRules: [Int]
        /// Whether the whole file is deleted (a file the run never loaded, when asked).
        public var deletesFile: Bool
        /// The file's new content (`nil` when it is deleted).
        var newBytes: [UInt8]?
    }

    /// The changes, in path order.
    public var changes: [Change]
    /// Files with unused entries that are left alone, and why.
    public var skipped: [(path: String, reason: String)]

    /// The plan for `report`'s unused entries; files never loaded are deleted only when
    /// `deletingUnloadedFiles` (a folder-shaped cassette never loaded is listed as skipped instead).
    ///
    /// - Throws: ``CassetteError`` naming a file that cannot be read, or whose edited form would not read
    ///   back as the same tracks less the removed ones (then nothing is changed anywhere).
    public init(report: CoverageReport, deletingUnloadedFiles: Bool) throws(CassetteError) {
        changes = []
        skipped = []
        for file in report.files {
            if !file.loaded {
                guard deletingUnloadedFiles else { continue }
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    skipped.append((file.path, "a folder-shaped cassette never loaded: delete it yourself if it is unused"))
                    continue
                }
                changes.append(Change(path: file.path, removedTracks: [], removedRules: [], deletesFile: true, newBytes: nil))
                continue
            }
            guard !file.unusedTracks.isEmpty || !file.unusedRules.isEmpty else { continue }
            if let changed = file.changed {
                skipped.append((file.path, changed))
                continue
            }
            switch try Self.edit(file) {
            case .success(let change): changes.append(change)
            case .failure(let reason): skipped.append((file.path, reason.message))
            }
        }
    }

    /// Why one file cannot be pruned.
    private struct Refusal: Error {
        let message: String
    }

    /// The change removing `file`'s unused entries, or why there is none.
    private static func edit(_ file: CoverageReport.FileCoverage) throws(CassetteError) -> Result<Change, Refusal> {
        let url = URL(fileURLWithPath: file.path)
        let format = try CassetteFormat.detect(url)
        if file.ruleCount > 0, file.trackCount > 0 {
            return .failure(Refusal(message: "it holds both exact tracks and pattern rules, so its entries cannot be told apart by position"))
        }
        guard prunableFormats.contains(format) else {
            return .failure(Refusal(message: "pruning does not edit \(format.name) files (only native, HAR, DVR, Vinyl, Hoverfly, VCR and rule files)"))
        }
        guard let spans = spans(of: try FileAccess.read(url), format: format, url: url) else {
            return .failure(Refusal(message: "its list of entries was not found where a \(format.name) file keeps it"))
        }
        let removingTracks = !file.unusedTracks.isEmpty
        let expected = removingTracks ? file.trackCount : file.ruleCount
        guard spans.elements.count == expected else {
            return .failure(Refusal(message: "its list has \(spans.elements.count) entries but it loads as \(expected) \(removingTracks ? "tracks" : "rules"), so entries cannot be told apart by position"))
        }
        let removed = (removingTracks ? file.unusedTracks : file.unusedRules).map(\.position)
        let edited = spans.removing(Set(removed))
        try verify(edited, of: url, format: format, removed: Set(removed), tracks: removingTracks)
        return .success(Change(
            path: file.path, removedTracks: removingTracks ? removed : [], removedRules: removingTracks ? [] : removed,
            deletesFile: false, newBytes: edited))
    }

    /// The formats whose files keep their entries in one list, which pruning edits.
    private static let prunableFormats: Set<CassetteFormat> = [.native, .har, .dvr, .vinyl, .hoverfly, .vcr, .rules]

    /// Where the entries of a file of `format` are, or `nil` when they are not where the format keeps them.
    private static func spans(of bytes: [UInt8], format: CassetteFormat, url: URL) -> ListElementSpans? {
        let isYAML = ["yml", "yaml"].contains(url.pathExtension.lowercased())
        switch format {
        case .native: return ListElementSpans.json(bytes, path: ["tracks"])
        case .har: return ListElementSpans.json(bytes, path: ["log", "entries"])
        case .dvr: return ListElementSpans.json(bytes, path: ["interactions"])
        case .vinyl: return ListElementSpans.json(bytes, path: [])
        case .hoverfly: return ListElementSpans.json(bytes, path: ["data", "pairs"])
        case .vcr:
            if isYAML { return ListElementSpans.yaml(bytes, key: "interactions") ?? ListElementSpans.yaml(bytes, key: "http_interactions") }
            return ListElementSpans.json(bytes, path: ["http_interactions"]) ?? ListElementSpans.json(bytes, path: ["interactions"])
        case .rules:
            if isYAML { return ListElementSpans.yaml(bytes, key: "rules") }
            return ListElementSpans.json(bytes, path: ["rules"]) ?? ListElementSpans.json(bytes, path: [])
        default: return nil
        }
    }

    /// Reads `edited` back (from a scratch copy named like the file) and checks that it holds the
    /// file's tracks and rules less the removed ones, in order.
    private static func verify(_ edited: [UInt8], of url: URL, format: CassetteFormat, removed: Set<Int>, tracks: Bool) throws(CassetteError) {
        let original = try format.load(url)
        // A scratch copy, not flushed to disk: it is read back at once and thrown away.
        let scratchFolder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-prune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratchFolder) }
        let scratch = scratchFolder.appendingPathComponent(url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: scratchFolder, withIntermediateDirectories: true)
            try Data(edited).write(to: scratch)
        } catch {
            throw CassetteError(file: scratch.path, expected: "a scratch copy to check the edit in", found: error.localizedDescription)
        }
        let reread = try format.load(scratch)
        let keptTracks = tracks ? original.cassette.tracks.enumerated().filter { !removed.contains($0.offset) }.map(\.element) : original.cassette.tracks
        let keptRules = tracks ? original.rules : original.rules.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        guard reread.cassette.tracks == keptTracks, reread.rules == keptRules else {
            throw CassetteError(
                file: url.path, expected: "an edit that keeps every other entry as it was",
                found: "the edited file reads back differently (\(reread.cassette.tracks.count) tracks and \(reread.rules.count) rules): nothing was changed")
        }
    }

    /// Applies the plan: each edited file replaced atomically, each file to delete removed. Every edit
    /// was checked when the plan was made, so a failure here is the file system's.
    public func apply() throws(CassetteError) {
        for change in changes {
            if let bytes = change.newBytes {
                try AtomicFile.write(bytes, to: URL(fileURLWithPath: change.path))
            } else if change.deletesFile {
                do {
                    try FileManager.default.removeItem(atPath: change.path)
                } catch {
                    throw CassetteError(file: change.path, expected: "a file that can be deleted", found: error.localizedDescription)
                }
            }
        }
    }
}
