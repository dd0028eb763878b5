import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see the old content or the new, never a truncated mix: the bytes go
/// to a temporary file in the same folder (so the rename cannot cross file systems), are flushed to
/// disk, and the temporary file is renamed over the destination, which POSIX makes atomic.
public enum AtomicFile {
    /// Replaces the file at `url` with `bytes` atomically.
    public static func write(_ bytes: [UInt8], to url: URL) throws(CassetteError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure(url, "cannot create a temporary file in \(folder.path)") }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary.path) }
        }
        let written = writeAll(bytes, to: descriptor)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written else { throw failure(url, "could not write all \(bytes.count) bytes") }
        guard synced else { throw failure(url, "could not flush the file to disk") }
        guard rename(temporary.path, url.path) == 0 else { throw failure(url, "could not rename the temporary file into place") }
        succeeded = true
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return true }  // nothing to write
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let count = Glibc.write(descriptor, base + offset, buffer.count - offset)
                #else
                let count = Darwin.write(descriptor, base + offset, buffer.count - offset)
                #endif
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }

    private static func failure(_ url: URL, _ message: String) -> CassetteError {
        CassetteError(file: url.path, expected: "a writable location", found: message + " (errno \(errno): \(String(cString: strerror(errno))))")
    }
}
