import Foundation
import Tonearm

/// WireMock stub mappings: single-stub files and `{"mappings": [...]}` files.
///
/// A mapping that names one exact request (`url` with a method, no header conditions, and for
/// methods with a body an `equalTo`/`equalToJson` body) becomes a track; every other mapping becomes
/// a regex ``Rule``. Whatever a mapping uses that Tonearm cannot reproduce (templating, JSONPath
/// filters, raw-body matchers...) is listed in ``CassetteImport/warnings``, one warning per feature per
/// mapping; nothing is dropped silently. Rules are listed most recent first, because WireMock tries
/// later stubs before earlier ones at equal priority.
public enum WireMockFormat {
    /// The configuration WireMock stubs match under: path instead of URL, since stubs have no host.
    public static var configuration: MatchingConfiguration {
        MatchingConfiguration(attributes: [.method, .path, .query, .body])
    }

    /// Reads a mapping file. `bodyFiles` is the `__files` folder `bodyFileName` is resolved in; when
    /// `nil`, it is looked for beside the file's `mappings` folder (or beside the file).
    public static func load(contentsOf url: URL, bodyFiles: URL? = nil) throws(CassetteError) -> CassetteImport {
        let bytes = try FileAccess.read(url)
        return try decode(bytes, file: url.path, bodyFiles: bodyFiles ?? defaultBodyFiles(for: url))
    }

    /// Reads mapping bytes; `file` names them in errors and rule names.
    public static func decode(_ bytes: [UInt8], file: String? = nil, bodyFiles: URL? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source), source: source)
        let mappings = try root.member("mappings")?.elements() ?? [root]
        var reader = WireMockMappingReader(file: file, bodyFiles: bodyFiles)
        for (index, mapping) in mappings.enumerated() { try reader.read(mapping, index: index) }
        return CassetteImport(
            cassette: Cassette(entries: reader.entries), rules: reader.rules.reversed(), configuration: configuration,
            warnings: reader.warnings)
    }

    static func defaultBodyFiles(for url: URL) -> URL {
        let folder = url.deletingLastPathComponent()
        let base = folder.lastPathComponent == "mappings" ? folder.deletingLastPathComponent() : folder
        return base.appendingPathComponent("__files", isDirectory: true)
    }
}
