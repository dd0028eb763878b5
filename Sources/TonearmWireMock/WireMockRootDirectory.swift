import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// A WireMock root directory (`tonearm serve --root-dir DIR`): mappings in `DIR/mappings` (one mapping
/// per file, or `{"mappings": [...]}`; subfolders too), bodies in `DIR/__files`, as WireMock's standalone
/// server lays them out. `POST /__admin/mappings/save` writes into `DIR/mappings`. A symbolic link that
/// leads out of `DIR` (a mapping file, the `mappings` folder) or out of `__files` (a body file) is refused.
package struct WireMockRootDirectory: Sendable {
    let url: URL
    /// `DIR/__files`, its links resolved once at start: a `__files` that is itself a link out of `DIR`
    /// is refused then, and body files are confined to the real folder from then on.
    let bodyFiles: URL
    /// The WireMock version and templating its mappings are read under.
    let wireMock: ServerConfiguration.WireMock

    init(_ url: URL, _ wireMock: ServerConfiguration.WireMock = .init()) throws(ServerError) {
        self.url = url
        self.wireMock = wireMock
        do throws(CassetteError) {
            bodyFiles = try WireMockFormat.bodyFilesFolder(ofRoot: url)
        } catch {
            throw .invalid(what: "WireMock root directory", value: url.path, expected: error.description)
        }
    }

    /// How the directory's mappings are read.
    var reading: WireMockMappingReading {
        WireMockMappingReading(bodyFiles: bodyFiles, wireMock)
    }

    var mappingsFolder: URL { url.appendingPathComponent("mappings", isDirectory: true) }
    /// Mapping files and body files are read, and mappings saved, only inside the directory, whatever
    /// symbolic links in it say.
    private var confinement: FolderConfinement { FolderConfinement(root: url) }

    /// Every mapping of the directory, in file-name order; all or nothing: a mapping Tonearm would refuse
    /// through the admin API fails the load, naming the file.
    func load() throws(ServerError) -> [WireMockMapping] {
        let read = read(stoppingAtFirstRefusal: true)
        if let refusal = read.refusals.first { throw refusal }
        return read.mappings
    }

    /// What `tonearm serve --root-dir` refuses in the WireMock root folder `url`, every refusal rather
    /// than the first: `tonearm lint` reports them, so a folder lint passes is one serve loads.
    package static func refusals(inRoot url: URL, _ wireMock: ServerConfiguration.WireMock = .init()) -> [ServerError] {
        do throws(ServerError) {
            return try WireMockRootDirectory(url, wireMock)
                .read(stoppingAtFirstRefusal: false).refusals
        } catch {
            return [error]
        }
    }

    /// Whether `warning`, the importer's about a mapping of a root folder, concerns a response member
    /// the server reads itself (`transformers`, `statusMessage`, `delayDistribution`, `proxyBaseUrl`, …:
    /// ``WireMockResponseSettings/members``), which `tonearm serve --root-dir` honours rather than
    /// drops: `tonearm lint` leaves such warnings out, so lint and serve agree.
    package static func isHonouredByServe(_ warning: ImportWarning) -> Bool {
        WireMockResponseSettings.members.contains { warning.path.hasSuffix(".response.\($0)") }
    }

    /// The directory's mappings, and what was refused (a file leading out of the directory or
    /// unreadable, a mapping the admin API would refuse), each naming its file.
    private func read(stoppingAtFirstRefusal: Bool) -> (mappings: [WireMockMapping], refusals: [ServerError]) {
        let files = ((FileManager.default.enumerator(at: mappingsFolder, includingPropertiesForKeys: nil)?.allObjects as? [URL]) ?? [])
            .filter { $0.pathExtension.lowercased() == "json" }
            .sorted { $0.path < $1.path }
        var mappings: [WireMockMapping] = []
        var refusals: [ServerError] = []
        let confinement = self.confinement
        for listed in files {
            if stoppingAtFirstRefusal, !refusals.isEmpty { break }
            let file: URL
            do throws(FolderConfinement.Escape) {
                file = try confinement.resolve(listed.path)
            } catch {
                refusals.append(.invalid(what: "WireMock mapping file", value: listed.path, expected: "a file inside the root directory: \(error)"))
                continue
            }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                refusals.append(.invalid(what: "WireMock mapping file", value: file.path, expected: "a readable file"))
                continue
            }
            let bytes = Array(data)
            let parsed = try? JSONValue(parsing: bytes)
            let elements: [(bytes: [UInt8], source: String, isShared: Bool)] =
                if case .array(let list)? = parsed?[member: "mappings"] {
                    list.enumerated().map { ($1.bytes, "\(file.path) mappings[\($0)]", true) }
                } else {
                    [(bytes, file.path, false)]
                }
            for element in elements {
                do throws(WireMockError) {
                    var mapping = try WireMockMapping.decode(element.bytes, source: element.source, reading: reading)
                    mapping.file = WireMockMapping.SavedFile(url: file, isShared: element.isShared)
                    mappings.append(mapping)
                } catch {
                    refusals.append(.invalid(
                        what: "WireMock mapping", value: element.isShared ? element.source : file.path,
                        expected: "a mapping Tonearm supports (at \(error.pointer.map { $0.isEmpty ? "/" : $0 } ?? "/"): \(error.detail))"))
                    if stoppingAtFirstRefusal { break }
                }
            }
        }
        return (mappings, refusals)
    }

    /// The `mappings` folder, resolved inside the root directory (a link leading out of it is refused).
    private func confinedMappingsFolder(_ title: String) throws(WireMockError) -> URL {
        do throws(FolderConfinement.Escape) {
            return try confinement.resolve(self.mappingsFolder.path)
        } catch {
            throw WireMockError(status: 500, pointer: nil, title: title, detail: "the mappings folder must lie inside the root directory: \(error)")
        }
    }

    /// Deletes the files of removed mappings, as WireMock does; never one outside the root directory, and
    /// never a file that holds other mappings too.
    func delete(_ files: [WireMockMapping.SavedFile]) throws(WireMockError) {
        let confinement = self.confinement
        for saved in files where !saved.isShared {
            let file: URL
            do throws(FolderConfinement.Escape) {
                file = try confinement.resolve(saved.url.path)
            } catch {
                throw WireMockError(status: 500, pointer: nil, title: "Cannot remove a mapping file", detail: "\(error)")
            }
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw WireMockError(status: 500, pointer: nil, title: "Cannot remove a mapping file", detail: "\(file.path): \(error.localizedDescription)")
            }
        }
    }

    /// Writes each mapping over its own file (one holding no other mapping), else as
    /// `mappings/<id>.json`, atomically each; never outside the root directory (a link leading out of it
    /// is refused). Returns them with their files.
    @discardableResult
    func save(_ mappings: [WireMockMapping]) throws(WireMockError) -> [WireMockMapping] {
        let mappingsFolder = try confinedMappingsFolder("Cannot save mappings")
        let confinement = self.confinement
        var saved: [WireMockMapping] = []
        for var mapping in mappings {
            let file: URL
            if let own = mapping.file, !own.isShared {
                do throws(FolderConfinement.Escape) {
                    file = try confinement.resolve(own.url.path)
                } catch {
                    throw WireMockError(status: 500, pointer: nil, title: "Cannot save mappings", detail: "\(error)")
                }
            } else {
                file = mappingsFolder.appendingPathComponent("\(mapping.id).json")
            }
            do {
                try FileManager.default.createDirectory(at: mappingsFolder, withIntermediateDirectories: true)
            } catch {
                throw WireMockError(status: 500, pointer: nil, title: "Cannot save mappings", detail: "\(mappingsFolder.path): \(error.localizedDescription)")
            }
            do throws(CassetteError) {
                try AtomicFile.write(mapping.json.bytes + [0x0A], to: file)
            } catch {
                throw WireMockError(status: 500, pointer: nil, title: "Cannot save mappings", detail: error.description)
            }
            mapping.file = WireMockMapping.SavedFile(url: file, isShared: false)
            saved.append(mapping)
        }
        return saved
    }
}
