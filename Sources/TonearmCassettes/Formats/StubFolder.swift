import Foundation
import Tonearm

/// Per-test stub folders: one folder per test, one JSON file per request inside it, named so that
/// a directory listing reads in recording order (`001-GET-users-42.json`).
///
/// A file holding one native-format track plus `formatVersion` (what Tonearm writes) is that track, so
/// stubs are readable and editable on their own and convert losslessly to and from cassettes. Any other
/// JSON file is a response body alone, as teams keep hand-written stubs: it answers the requests its
/// name describes (see `BodyFileRule`), with status 200 and `Content-Type: application/json`.
public enum StubFolder {
    /// Reads every test folder directly inside `root`, by folder name; files are taken in name order.
    public static func read(_ root: URL) throws(CassetteError) -> [(test: String, cassette: Cassette)] {
        var result: [(test: String, cassette: Cassette)] = []
        for folder in try contents(of: root) where isDirectory(folder) {
            result.append((folder.lastPathComponent, try readTest(folder)))
        }
        return result
    }

    /// Reads `root` as one cassette: the stub files directly inside it (one test's folder) and those of
    /// every test folder inside it. A track without a name is named after its test; body-only files
    /// become rules, the most specific name first.
    static func load(_ root: URL) throws(CassetteError) -> CassetteImport {
        var tests = [(test: root.lastPathComponent, files: try readFiles(root))]
        for folder in try contents(of: root) where isDirectory(folder) {
            tests.append((folder.lastPathComponent, try readFiles(folder)))
        }
        let entries = tests.flatMap { test in
            test.files.entries.map { entry in
                var named = entry
                if named.track.name == nil { named.track.name = test.test }
                return named
            }
        }
        let rules = BodyFileRule.ordered(tests.flatMap(\.files.bodies))
        return CassetteImport(cassette: Cassette(name: root.lastPathComponent, entries: entries), rules: rules)
    }

    /// Reads one test's folder: its native track files. Body-only files are rules, which a cassette
    /// cannot hold; `CassetteFile.load` reads both.
    public static func readTest(_ folder: URL) throws(CassetteError) -> Cassette {
        Cassette(name: folder.lastPathComponent, entries: try readFiles(folder).entries)
    }

    /// The stub files directly inside `folder`: native tracks, and body-only files as rules.
    private static func readFiles(_ folder: URL) throws(CassetteError) -> (entries: [CassetteEntry], bodies: [BodyFileRule]) {
        var entries: [CassetteEntry] = [], bodies: [BodyFileRule] = []
        for file in try contents(of: folder) where file.pathExtension == "json" && !isDirectory(file) {
            let bytes = try FileAccess.read(file)
            let source = DocumentSource(file: file.path, bytes: bytes)
            let root = DocumentCursor(root: try NativeFormat.parse(source), source: source)
            if root.has("formatVersion") {
                try NativeFormat.checkVersion(root)
                entries.append(try NativeTrackCodec.read(root))
            } else {
                bodies.append(BodyFileRule(file: file, body: bytes))
            }
        }
        return (entries, bodies)
    }

    /// Writes each cassette as a test folder under `root`, replacing stub files left from earlier runs.
    public static func write(_ tests: [(test: String, cassette: Cassette)], to root: URL) throws(CassetteError) {
        for (test, cassette) in tests {
            try writeTest(cassette, to: root.appendingPathComponent(test, isDirectory: true))
        }
    }

    /// Writes one test's folder.
    public static func writeTest(_ cassette: Cassette, to folder: URL) throws(CassetteError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CassetteError(file: folder.path, expected: "a folder that can be created", found: "\(error)")
        }
        var written: Set<String> = []
        for (index, entry) in cassette.entries.enumerated() {
            let name = fileName(index: index, request: entry.track.request)
            written.insert(name)
            let file = folder.appendingPathComponent(name)
            let output: JSONOutput
            do {
                output = try NativeTrackCodec.output(entry, at: "$")
            } catch {
                throw error.inFile(file.path)
            }
            guard case .object(let members) = output else { continue }
            let document = JSONOutput.object([("formatVersion", .int(NativeFormat.formatVersion))] + members)
            try AtomicFile.write(document.prettyPrinted(), to: file)
        }
        // Only Tonearm's own track files are stale: a hand-written body file beside them is the team's.
        for stale in try contents(of: folder)
        where isStubFile(stale.lastPathComponent) && !written.contains(stale.lastPathComponent) && isTrackFile(stale) {
            try? FileManager.default.removeItem(at: stale)
        }
    }

    /// `NNN-METHOD-path-slug.json`.
    static func fileName(index: Int, request: Request) -> String {
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
        let path = NormalizedURL(request.url).path
        let slug = path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-").prefix(48)
        return "\(padded)-\(request.method.uppercased())\(slug.isEmpty ? "" : "-" + slug).json"
    }

    /// Whether `file` is a native track file (its top level has `formatVersion`), as ``readTest(_:)`` tells them apart.
    private static func isTrackFile(_ file: URL) -> Bool {
        guard let bytes = try? FileAccess.read(file), let root = try? NativeFormat.parse(DocumentSource(file: file.path, bytes: bytes)) else {
            return false
        }
        return DocumentCursor(root: root, source: DocumentSource(file: file.path, bytes: bytes)).has("formatVersion")
    }

    private static func isStubFile(_ name: String) -> Bool {
        name.hasSuffix(".json") && name.prefix { $0.isNumber }.count >= 3
    }

    private static func contents(of folder: URL) throws(CassetteError) -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw CassetteError(file: folder.path, expected: "a readable folder", found: "\((error as NSError).localizedDescription)")
        }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &flag) && flag.boolValue
    }
}
