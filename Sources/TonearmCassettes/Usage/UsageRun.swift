import Foundation

/// The usage records of one test run, merged: every cassette file any process loaded, with its tracks'
/// and rules' answers added up over all of them.
public struct UsageRun: Sendable, Hashable {
    /// Each file loaded, once, by path.
    public var files: [String: FileUsage]
    /// Files loaded with different numbers of tracks or rules by different processes (the file
    /// changed during the run): their answers cannot be added position by position. Path → the usage
    /// merged per shape (number of tracks and rules) seen.
    public var changedDuringRun: [String: [FileUsage]]
    /// How many records were read.
    public var recordCount: Int

    /// Merges `records`.
    public init(records: [UsageRecord]) {
        files = [:]
        changedDuringRun = [:]
        recordCount = records.count
        for file in records.flatMap(\.files) {
            if var shapes = changedDuringRun[file.path] {
                if let same = shapes.firstIndex(where: { $0.hasShape(of: file) }) { shapes[same].add(file) } else { shapes.append(file) }
                changedDuringRun[file.path] = shapes
            } else if let merged = files[file.path] {
                if merged.hasShape(of: file) {
                    files[file.path]?.add(file)
                } else {
                    changedDuringRun[file.path] = [merged, file]
                    files[file.path] = nil
                }
            } else {
                files[file.path] = file
            }
        }
    }

    /// Reads and merges every `*.tonearm-usage.json` record in `folder`.
    ///
    /// - Throws: ``CassetteError`` naming the record that does not parse (a truncated record is an
    ///   error, never a partial count), or the folder when it cannot be read.
    public static func read(folder: URL) throws(CassetteError) -> UsageRun {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw CassetteError(file: folder.path, expected: "a folder of usage records", found: error.localizedDescription)
        }
        var records: [UsageRecord] = []
        for name in names.sorted() where name.hasSuffix(UsageRecord.fileSuffix) {
            let url = folder.appendingPathComponent(name)
            records.append(try UsageRecord.decode(FileAccess.read(url), file: url.path))
        }
        return UsageRun(records: records)
    }
}
