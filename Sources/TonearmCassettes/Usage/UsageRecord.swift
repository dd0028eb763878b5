import Foundation
import Tonearm

/// What one replaying process (a test process, a server, a pytest worker) leaves behind: the cassette
/// files it loaded and how often each of their tracks and rules answered.
///
/// Each process writes its own record into a usage folder (``write(intoFolder:)``: a new file, named
/// so that parallel writers never collide), and ``UsageRun`` merges a folder's records afterwards, so
/// parallel test processes and workers need no coordination. On disk (`*.tonearm-usage.json`):
///
/// ```json
/// {
///   "tonearmUsage": 1,
///   "writer": "swift",
///   "files": [
///     { "path": "/repo/Tests/__Cassettes__/Login.json", "loads": 1, "tracks": 3, "rules": 0,
///       "trackPlays": [[0, 2], [2, 1]], "rulePlays": [] }
///   ]
/// }
/// ```
///
/// `trackPlays` and `rulePlays` list `[position, answers]` for each track or rule that answered at
/// least once (positions in file order); `tracks` and `rules` say how many the file had when loaded.
public struct UsageRecord: Sendable, Hashable {
    /// The version of the record format this code writes and reads.
    public static let formatVersion = 1
    /// The variable naming the folder replaying processes write their records into: a test process's
    /// cassette sessions each leave one when they finish, when it is set.
    public static let environmentVariable = "TONEARM_USAGE_DIR"
    /// What every record file's name ends with.
    public static let fileSuffix = ".tonearm-usage.json"

    /// Who wrote it, e.g. `swift` or `tonearm serve`: for people reading a record.
    public var writer: String
    /// The files loaded, each once.
    public var files: [FileUsage]

    /// Creates a record.
    public init(writer: String, files: [FileUsage]) {
        self.writer = writer
        self.files = files
    }

    /// A record of `sources` in an engine whose counts are `usage`; sources naming one file (loaded
    /// twice into one engine) are kept apart only if their shapes differ.
    public init(writer: String, sources: [UsageSource], usage: EngineUsage) {
        var files: [FileUsage] = []
        for source in sources {
            let file = FileUsage(source, in: usage)
            if let same = files.firstIndex(where: { $0.hasShape(of: file) }) { files[same].add(file) } else { files.append(file) }
        }
        self.init(writer: writer, files: files)
    }

    /// The record as pretty-printed JSON.
    public func encoded() -> [UInt8] {
        func plays(_ counts: [Int]) -> JSONOutput {
            .array(counts.indices.filter { counts[$0] > 0 }.map { .inlineArray([.int($0), .int(counts[$0])]) })
        }
        let files = files.map { file in
            JSONOutput.object([
                ("path", .string(file.path)), ("loads", .int(file.loads)), ("tracks", .int(file.trackPlays.count)),
                ("rules", .int(file.rulePlays.count)), ("trackPlays", plays(file.trackPlays)), ("rulePlays", plays(file.rulePlays)),
            ])
        }
        return JSONOutput.object([("tonearmUsage", .int(Self.formatVersion)), ("writer", .string(writer)), ("files", .array(files))])
            .prettyPrinted()
    }

    /// Reads a record; `file` names it in errors, which give the line, column and path of the problem.
    public static func decode(_ bytes: [UInt8], file: String?) throws(CassetteError) -> UsageRecord {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source), source: source)
        guard let version = try root.member("tonearmUsage") else {
            throw root.missing("tonearmUsage", expected: "a Tonearm usage record (an object with \"tonearmUsage\": \(formatVersion))")
        }
        guard try version.int() == formatVersion else {
            throw version.error(expected: "usage record version \(formatVersion)", found: "version \(try version.scalarText())")
        }
        let writer = try root.optionalString("writer") ?? "unknown"
        var files: [FileUsage] = []
        for entry in try root.required("files", expected: "an array of files").elements() {
            let path = try entry.required("path", expected: "the file's path").string()
            let trackPlays = try plays(in: entry, of: "tracks", listedIn: "trackPlays")
            let rulePlays = try plays(in: entry, of: "rules", listedIn: "rulePlays")
            let loads = try entry.optionalInt("loads") ?? 1
            guard loads >= 0 else { throw entry.error(expected: "a number of loads, 0 or more", found: String(loads)) }
            files.append(FileUsage(path: path, trackPlays: trackPlays, rulePlays: rulePlays, loads: loads))
        }
        return UsageRecord(writer: writer, files: files)
    }

    /// The answers per track (or rule) of `entry`, whose member `countKey` says how many there are and
    /// whose `[position, answers]` list is `listKey`.
    private static func plays(in entry: DocumentCursor, of countKey: String, listedIn key: String) throws(CassetteError) -> [Int] {
        let counted = try entry.required(countKey, expected: "how many \(countKey) the file had")
        let count = try counted.int()
        // A count from the file sizes an array: refuse what no cassette holds rather than allocate it.
        guard (0...10_000_000).contains(count) else {
            throw counted.error(expected: "a number of \(countKey) from 0 to 10,000,000", found: String(count))
        }
        var counts = [Int](repeating: 0, count: count)
        for pair in try entry.member(key)?.elements() ?? [] {
            let numbers = try pair.elements()
            guard numbers.count == 2 else { throw pair.error(expected: "[position, answers]", found: "\(numbers.count) element(s)") }
            let position = try numbers[0].int(), answers = try numbers[1].int()
            guard counts.indices.contains(position) else {
                throw numbers[0].error(expected: "a position below \(count)", found: String(position))
            }
            guard answers >= 0 else { throw numbers[1].error(expected: "a number of answers, 0 or more", found: String(answers)) }
            counts[position] &+= answers
        }
        return counts
    }

    /// Writes the record as a new file in `folder` (created when missing), atomically, named
    /// `<writer>-<process id>-<random>.tonearm-usage.json` so that any number of processes can write
    /// into one folder at once. Returns the file written.
    @discardableResult
    public func write(intoFolder folder: URL) throws(CassetteError) -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CassetteError(file: folder.path, expected: "a usage folder that can be created", found: error.localizedDescription)
        }
        let writerName = writer.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let name = "\(String(writerName))-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))\(Self.fileSuffix)"
        let url = folder.appendingPathComponent(name)
        try AtomicFile.write(encoded(), to: url)
        return url
    }
}
