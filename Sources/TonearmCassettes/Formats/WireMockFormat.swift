import Foundation
import Tonearm

/// WireMock stub mappings: single-stub files, `{"mappings": [...]}` files, and a WireMock root folder
/// (`mappings/` holding mapping files, subfolders included, bodies in `__files/`), as WireMock's
/// standalone server lays them out. WireMock.Net's `__admin` folder has the same layout: its mapping
/// files are read by ``WireMockNetFormat``.
///
/// A mapping that names one exact request (`url` with a method, no header conditions, and for
/// methods with a body an `equalTo`/`equalToJson` body) becomes a track; every other mapping becomes
/// a regex `Rule`. Whatever a mapping uses that Tonearm cannot reproduce (templating, JSONPath
/// filters, raw-body matchers...) is listed in ``CassetteImport/warnings``, one warning per feature per
/// mapping; nothing is dropped silently. Rules are listed most recent first, because WireMock tries
/// later stubs before earlier ones at equal priority.
public enum WireMockFormat {
    /// The field a request pattern's `clientIp` matcher (WireMock 3) is a header condition on: the
    /// client's IP address, which `tonearm serve` adds to the request it matches against mappings
    /// that use it (and to the journaled requests `requests/count` and its kin match). A colon starts
    /// it, as HTTP/2's pseudo-header fields: no HTTP/1.1 field name can, so no client can send it or
    /// stand in for it. Outside the server nothing adds it, so such a mapping matches nothing there.
    package static let clientAddressField = ":client-ip"

    /// The configuration WireMock stubs match under: path instead of URL, since stubs have no host.
    public static var configuration: MatchingConfiguration {
        MatchingConfiguration(attributes: [.method, .path, .query, .body])
    }

    /// Reads a mapping file. `bodyFiles` is the `__files` folder `bodyFileName` is resolved in; when
    /// `nil`, it is looked for beside the file's `mappings` folder (or beside the file).
    public static func load(contentsOf url: URL, bodyFiles: URL? = nil) throws(CassetteError) -> CassetteImport {
        if isRoot(url) { return try loadRoot(url) }
        let bytes = try FileAccess.read(url)
        let folder: URL
        if let bodyFiles { folder = bodyFiles } else { folder = try bodyFilesFolder(ofRoot: defaultRoot(for: url)) }
        return try decode(bytes, file: url.path, bodyFiles: folder)
    }

    /// Reads mapping bytes; `file` names them in errors and rule names.
    public static func decode(_ bytes: [UInt8], file: String? = nil, bodyFiles: URL? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        return try decode(DocumentCursor(root: try JSONDocumentParser.parse(source), source: source), file: file, bodyFiles: bodyFiles)
    }

    /// Reads a parsed mapping document: one mapping, or `{"mappings": [...]}`.
    static func decode(_ root: DocumentCursor, file: String?, bodyFiles: URL?) throws(CassetteError) -> CassetteImport {
        let mappings = try root.member("mappings")?.elements() ?? [root]
        var reader = WireMockMappingReader(file: file, bodyFiles: bodyFiles)
        for (index, mapping) in mappings.enumerated() {
            try reader.read(DocumentCursor(node: mapping.node.filledInAsWireMockServes(), path: mapping.path, source: mapping.source), index: index)
        }
        return CassetteImport(
            cassette: Cassette(entries: reader.entries), rules: reader.rules.reversed(), configuration: configuration,
            warnings: reader.warnings)
    }

    /// Whether `url` is a WireMock root folder: a folder with a `mappings` folder in it.
    static func isRoot(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        let mappings = url.appendingPathComponent("mappings", isDirectory: true).path
        return FileManager.default.fileExists(atPath: mappings, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The `__files` folder of the WireMock root `root`, its symbolic links resolved: refused when it
    /// leads out of the root (a `__files` that is itself a link to `/etc` would otherwise confine body
    /// files to `/etc`). The folder need not exist.
    package static func bodyFilesFolder(ofRoot root: URL) throws(CassetteError) -> URL {
        do throws(FolderConfinement.Escape) {
            return try FolderConfinement(root: root).resolve("__files")
        } catch {
            throw CassetteError(
                file: root.appendingPathComponent("__files").path, expected: "a __files folder inside the WireMock root \(root.path)",
                found: error.description)
        }
    }

    /// Every `.json` mapping file under `root/mappings`, in path order, bodies from `root/__files`.
    /// A mapping file whose links lead out of the root is refused, as the server's `--root-dir` does.
    private static func loadRoot(_ root: URL) throws(CassetteError) -> CassetteImport {
        let confinement = FolderConfinement(root: root)
        let mappings = root.appendingPathComponent("mappings", isDirectory: true)
        let listed = ((FileManager.default.enumerator(at: mappings, includingPropertiesForKeys: nil)?.allObjects as? [URL]) ?? [])
            .filter { $0.pathExtension.lowercased() == "json" }
            .sorted { $0.path < $1.path }
        let bodyFiles = try bodyFilesFolder(ofRoot: root)
        var files: [CassetteImport] = []
        for file in listed {
            let confined: URL
            do throws(FolderConfinement.Escape) {
                confined = try confinement.resolve(file.path)
            } catch {
                throw CassetteError(file: file.path, expected: "a mapping file inside the WireMock root \(root.path)", found: error.description)
            }
            let bytes = try FileAccess.read(confined)
            // WireMock.Net's `__admin` folder has the same layout, with its own mapping shape.
            files.append(
                WireMockNetFormat.claims(FormatProbe.shape(bytes))
                    ? try WireMockNetFormat.decode(bytes, file: file.path, bodyFiles: mappings)
                    : try decode(bytes, file: file.path, bodyFiles: bodyFiles))
        }
        // Later stubs are tried first, across files as within one.
        return CassetteImport(
            cassette: Cassette(name: root.lastPathComponent, entries: files.flatMap(\.cassette.entries)),
            rules: files.reversed().flatMap(\.rules), configuration: configuration, warnings: files.flatMap(\.warnings))
    }

    /// The root a lone mapping file's `__files` is looked for in: the parent of its `mappings` folder,
    /// else its own folder.
    static func defaultRoot(for url: URL) -> URL {
        let folder = url.deletingLastPathComponent()
        return folder.lastPathComponent == "mappings" ? folder.deletingLastPathComponent() : folder
    }
}
