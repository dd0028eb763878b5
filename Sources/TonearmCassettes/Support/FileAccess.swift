import Foundation

/// Reading files with errors that name the file.
enum FileAccess {
    static func read(_ url: URL) throws(CassetteError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw CassetteError(file: url.path, expected: "a readable file", found: exists ? "a file that cannot be read" : "no such file")
        }
        return Array(data)
    }
}
