import Foundation

/// The cassette files (and folder-shaped cassettes) under some folders: what `tonearm coverage` and
/// `tonearm prune` hold a run's usage against.
///
/// A WireMock root (a folder with `mappings/`), a `.bundle` stub bundle, and any folder a run loaded
/// whole (a stub folder) count as one cassette each; otherwise every `.json`, `.har`, `.yml`, `.yaml`
/// and `.plist` file is one. Hidden files and usage records are left out. `tonearm lint` with no file
/// (as the SwiftPM plugin runs it) lints what this finds in the package's cassette folders.
package enum CassetteFolderScan {
    /// The extensions of files that may be cassettes.
    static let cassetteExtensions: Set<String> = ["json", "har", "yml", "yaml", "plist"]

    /// Every cassette under `roots` (a root that is itself a file is one), in path order, by standard
    /// path; `loadedFolders` are folders some process loaded whole.
    package static func cassettes(under roots: [URL], loadedFolders: Set<String>) throws(CassetteError) -> [String] {
        var found: Set<String> = []
        var visited: Set<String> = []
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
                throw CassetteError(file: root.path, expected: "a cassette folder or file", found: "nothing at that path")
            }
            if isDirectory.boolValue {
                try collect(in: root, loadedFolders: loadedFolders, into: &found, visited: &visited)
            } else {
                found.insert(UsageSource.standardPath(root))
            }
        }
        return found.sorted()
    }

    private static func collect(
        in folder: URL, loadedFolders: Set<String>, into found: inout Set<String>, visited: inout Set<String>
    ) throws(CassetteError) {
        let path = UsageSource.standardPath(folder)
        // A symbolic link back to a folder above would otherwise be walked forever.
        guard visited.insert(path).inserted else { return }
        if isWholeCassette(folder, path: path, loadedFolders: loadedFolders) {
            found.insert(path)
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw CassetteError(file: folder.path, expected: "a readable folder", found: error.localizedDescription)
        }
        for name in names where !name.hasPrefix(".") && !name.hasSuffix(UsageRecord.fileSuffix) {
            let child = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try collect(in: child, loadedFolders: loadedFolders, into: &found, visited: &visited)
            } else if cassetteExtensions.contains(child.pathExtension.lowercased()) {
                found.insert(UsageSource.standardPath(child))
            }
        }
    }

    /// Whether `folder` is read as one cassette: a WireMock root, a stub bundle, or a folder loaded whole.
    private static func isWholeCassette(_ folder: URL, path: String, loadedFolders: Set<String>) -> Bool {
        loadedFolders.contains(path) || WireMockFormat.isRoot(folder)
            || folder.pathExtension.lowercased() == "bundle" && StubBundleFormat.ruleFile(inBundle: folder) != nil
    }
}
