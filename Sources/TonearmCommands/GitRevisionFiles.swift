import Foundation

/// Files as a git revision has them, written into a temporary folder under their own names, so that
/// format detection (which looks at extensions and folder layouts) sees what it would see in the work
/// tree. `git` is run through Foundation's `Process`, its output going straight into the file.
struct GitRevisionFiles {
    /// Why a revision could not be read: which revision and path, and what git said.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the files are written; removed by ``removeAll()``.
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-diff-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func removeAll() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `path` (a file, or a folder such as a WireMock root or a stub folder) as `revision` has it, written
    /// to `folder/label/<name of path>`; the URL of the copy. `path` is read relative to the folder it is
    /// in, so a relative or absolute path works from anywhere inside the repository or outside it. When
    /// `readsSiblings` says the copied file may name other files (a rule file's `file:`, a WireMock
    /// mapping's `bodyFileName`), the rest of its folder at that revision is copied beside it.
    func materialize(_ path: String, at revision: String, label: String, readsSiblings: (URL) -> Bool) throws -> URL {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let directory = target.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw Failure(description: "\(path): the folder \(directory.path) does not exist, so git cannot be asked about it")
        }
        let name = target.lastPathComponent
        let verify = try Self.git(["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: directory)
        guard verify.status == 0 else {
            throw Failure(description: "\(revision): not a revision git knows in \(directory.path)\(verify.errors.isEmpty ? "" : " (\(verify.errors))")")
        }
        let object = "\(revision):./\(name)"
        let type = try Self.git(["cat-file", "-t", object], in: directory)
        guard type.status == 0 else {
            throw Failure(description: "\(revision):\(path): git cannot read it: \(type.errors.isEmpty ? "no such path in the revision" : type.errors)")
        }
        let destination = folder.appendingPathComponent(label, isDirectory: true)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        if type.output == "tree" {
            try writeFolder(name, at: revision, in: directory, to: destination)
        } else {
            let copy = destination.appendingPathComponent(name)
            try write(object, in: directory, to: copy)
            if readsSiblings(copy) { try writeFolder(".", at: revision, in: directory, to: destination, except: name) }
        }
        return destination.appendingPathComponent(name)
    }

    /// Writes every file below `subfolder` of `directory` at `revision` (but `excluded`) under `destination`.
    private func writeFolder(_ subfolder: String, at revision: String, in directory: URL, to destination: URL, except excluded: String? = nil) throws {
        // Without --full-name, ls-tree names the files relative to `directory`, as `REV:./name` reads them.
        let listing = try Self.git(["ls-tree", "-r", "-z", "--name-only", revision, "--", subfolder], in: directory)
        guard listing.status == 0 else { throw Failure(description: "\(revision):\(directory.path): git ls-tree failed: \(listing.errors)") }
        for file in listing.output.split(separator: "\0") where !file.isEmpty && String(file) != excluded {
            try write("\(revision):./\(file)", in: directory, to: destination.appendingPathComponent(String(file)))
        }
    }

    /// Writes the blob `object` (`REV:./path`) to `file`.
    private func write(_ object: String, in directory: URL, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let shown = try Self.git(["show", object], in: directory, output: handle)
        guard shown.status == 0 else { throw Failure(description: "\(object): git show failed: \(shown.errors)") }
    }

    /// Runs `git ARGUMENTS` in `directory`; its standard output goes to `output` when given (and is
    /// returned trimmed otherwise), its standard error is returned trimmed. Both go through files, not
    /// pipes, so neither can fill up and stall git.
    private static func git(_ arguments: [String], in directory: URL, output: FileHandle? = nil) throws -> (status: Int32, output: String, errors: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-git-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("output"), errorFile = scratch.appendingPathComponent("errors")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let standardOutput = try output ?? FileHandle(forWritingTo: outputFile)
        let standardError = try FileHandle(forWritingTo: errorFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory.path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = standardOutput
        process.standardError = standardError
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run git: \(error)")
        }
        process.waitUntilExit()
        if output == nil { try? standardOutput.close() }
        try? standardError.close()
        let text = { (file: URL) in
            String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (process.terminationStatus, output == nil ? text(outputFile) : "", text(errorFile))
    }
}
