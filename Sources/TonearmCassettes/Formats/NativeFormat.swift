import Foundation
import Tonearm

/// Tonearm's own cassette format: pretty-printed JSON, described in `docs/cassette-format.md`.
///
/// Saving is deterministic (members in a fixed order, tracks in recording order), and loading then
/// saving gives back the same bytes.
public enum NativeFormat {
    /// The version this library writes, and the newest it reads.
    public static let formatVersion = 1

    /// The cassette as native-format bytes; an error naming the path of the first value the reader
    /// would refuse (a status outside 100–999, a time outside years 0000–9999, a negative delay), so
    /// that everything written loads back.
    public static func encode(_ cassette: Cassette) throws(CassetteError) -> [UInt8] {
        var members: [(String, JSONOutput)] = [("formatVersion", .int(formatVersion))]
        if let name = cassette.name { members.append(("name", .string(name))) }
        if let strategy = cassette.strategy { members.append(("strategy", .string(strategy.rawValue))) }
        var tracks: [JSONOutput] = []
        tracks.reserveCapacity(cassette.entries.count)
        for (index, entry) in cassette.entries.enumerated() {
            tracks.append(try NativeTrackCodec.output(entry, at: "$.tracks[\(index)]"))
        }
        members.append(("tracks", .array(tracks)))
        return JSONOutput.object(members).prettyPrinted()
    }

    /// Writes the cassette to `url` atomically.
    public static func write(_ cassette: Cassette, to url: URL) throws(CassetteError) {
        do {
            try AtomicFile.write(encode(cassette), to: url)
        } catch {
            throw error.inFile(url.path)
        }
    }

    /// Reads a native cassette; `file` names it in errors.
    ///
    /// The tracks are read one at a time from the validated text rather than from a tree of the whole
    /// file, so loading holds the file's bytes, one track's tree and the decoded tracks; errors are the
    /// same, in the same order, as from a tree (the whole file is validated before any track is read).
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> Cassette {
        try stream(bytes, file: file).collected().cassette
    }

    /// Reads a native cassette up to its tracks, which are then read one at a time as they are handed
    /// on (``StreamedImport``).
    static func stream(_ bytes: [UInt8], file: String?) throws(CassetteError) -> StreamedImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try parse(source, streamedPath: ["tracks"]), source: source)
        try checkVersion(root)
        var strategy: StrategyHint?
        if let value = try root.member("strategy") {
            let name = try value.string()
            guard let hint = StrategyHint(rawValue: name) else {
                throw value.error(expected: "one of " + StrategyHint.allCases.map(\.rawValue).joined(separator: ", "), found: name.debugDescription)
            }
            strategy = hint
        }
        let tracks = try root.required("tracks", expected: "an array of tracks")
        let name = try root.optionalString("name")
        return StreamedImport(header: CassetteImport(cassette: Cassette(name: name, strategy: strategy))) { (each) throws(CassetteError) in
            try tracks.forEachElement(options: parserOptions) { (track) throws(CassetteError) in
                try each(try NativeTrackCodec.read(track))
            }
            return []
        }
    }

    /// Native JSON: `json` bodies left unbuilt, so big bodies cost one scan.
    static let parserOptions = JSONDocumentParser.Options(opaqueKeys: ["json"])

    /// Parses native JSON (see ``parserOptions``), leaving the member at `streamedPath` unbuilt.
    static func parse(_ source: DocumentSource, streamedPath: [String] = []) throws(CassetteError) -> DocumentNode {
        var options = parserOptions
        options.streamedPath = streamedPath
        return try JSONDocumentParser.parse(source, options: options)
    }

    static func checkVersion(_ root: DocumentCursor) throws(CassetteError) {
        let version = try root.required("formatVersion", expected: "the format version (1)")
        let number = try version.int()
        guard number >= 1, number <= formatVersion else {
            throw version.error(expected: "formatVersion \(formatVersion) or lower (this is Tonearm's cassette format \(formatVersion))", found: "\(number)")
        }
    }
}
