import Foundation

/// Reads a stub's `file` body, confined to a root folder: a stub document must not be able to serve
/// whatever the process can read (`"file": "../../etc/passwd"`).
///
/// The path must be relative; it is resolved against the document's folder and confined to the root
/// by ``FolderConfinement``. Anything else is an error naming the rule and the path, so the document
/// does not load.
enum BodyFileConfinement {
    static func read(
        _ relative: String, at cursor: DocumentCursor, _ bodyFiles: StubSchema.BodyFiles?, owner: String
    ) throws(CassetteError) -> [UInt8] {
        guard let bodyFiles else {
            throw cursor.error(
                expected: "an inline \"body\" or \"json\" for \(owner) (this document has no folder to read files from)",
                found: "file \(relative.debugDescription)")
        }
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.hasPrefix("~") else {
            throw cursor.error(
                expected: "a path relative to the rules folder for \(owner)", found: "the absolute path \(relative.debugDescription)")
        }
        let confinement = FolderConfinement(root: bodyFiles.root)
        let resolved: URL
        do throws(FolderConfinement.Escape) {
            resolved = try confinement.resolve(relative, relativeTo: bodyFiles.baseDirectory)
        } catch {
            throw cursor.error(expected: "a file inside \(confinement.root.path) for \(owner)", found: error.description)
        }
        guard let data = FileManager.default.contents(atPath: resolved.path) else {
            throw cursor.error(expected: "a response file for \(owner)", found: "no readable file at \(resolved.path)")
        }
        return Array(data)
    }
}
