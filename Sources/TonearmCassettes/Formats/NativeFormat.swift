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
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> Cassette {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try parse(source), source: source)
        try checkVersion(root)
        var strategy: StrategyHint?
        if let value = try root.member("strategy") {
            let name = try value.string()
            guard let hint = StrategyHint(rawValue: name) else {
                throw value.error(expected: "one of " + StrategyHint.allCases.map(\.rawValue).joined(separator: ", "), found: name.debugDescription)
            }
            strategy = hint
        }
        let tracks = try root.required("tracks", expected: "an array of tracks").elements()
        var entries: [CassetteEntry] = []
        entries.reserveCapacity(tracks.count)
        for track in tracks { entries.append(try NativeTrackCodec.read(track)) }
        return Cassette(name: try root.optionalString("name"), strategy: strategy, entries: entries)
    }

    /// Parses native JSON, leaving `json` bodies unbuilt so big bodies cost one scan.
    static func parse(_ source: DocumentSource) throws(CassetteError) -> DocumentNode {
        try JSONDocumentParser.parse(source, options: .init(opaqueKeys: ["json"]))
    }

    static func checkVersion(_ root: DocumentCursor) throws(CassetteError) {
        let version = try root.required("formatVersion", expected: "the format version (1)")
        let number = try version.int()
        guard number >= 1, number <= formatVersion else {
            throw version.error(expected: "formatVersion \(formatVersion) or lower (this is Tonearm's cassette format \(formatVersion))", found: "\(number)")
        }
    }
}
