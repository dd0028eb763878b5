import Foundation

/// Reading files with errors that name the file.
package enum FileAccess {
    /// The file's bytes, read straight into the array (not through `Data`, which would hold a second
    /// copy of a large cassette while it is converted).
    /// Opened with `open(2)` rather than `FileHandle(forReadingAtPath:)`, which on Linux adds
    /// `O_NONBLOCK`: a pipe such as `/dev/stdin` would then fail with `EAGAIN` before its writer wrote.
    package static func read(_ url: URL) throws(CassetteError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(url) }
        defer { close(descriptor) }
        guard let bytes = readToEnd(descriptor) else { throw unreadable(url) }
        return bytes
    }

    /// The size of the file at `url` (following symbolic links), or 0 when it cannot be read.
    package static func size(of url: URL) -> Int {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Everything on standard input, read the same way.
    package static func readStandardInput() throws(CassetteError) -> [UInt8] {
        guard let bytes = readToEnd(FileHandle.standardInput.fileDescriptor) else {
            throw CassetteError(file: "standard input", expected: "readable input", found: "a read error")
        }
        return bytes
    }

    /// The bytes up to the end of `descriptor`, or `nil` on a read error. A regular file's size is a
    /// hint for the first allocation: reading goes on to the end if the file grew.
    private static func readToEnd(_ descriptor: Int32) -> [UInt8]? {
        var status = stat()
        var bytes: [UInt8] = []
        if fstat(descriptor, &status) == 0, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    private static func unreadable(_ url: URL) -> CassetteError {
        let exists = FileManager.default.fileExists(atPath: url.path)
        return CassetteError(file: url.path, expected: "a readable file", found: exists ? "a file that cannot be read" : "no such file")
    }
}
