import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see the old content or the new, never a truncated mix: the bytes go
/// to a temporary file in the same folder (so the rename cannot cross file systems), are flushed to
/// disk, and the temporary file is renamed over the destination, which POSIX makes atomic.
package enum AtomicFile {
    /// Replaces the file at `url` with `bytes` atomically.
    package static func write(_ bytes: [UInt8], to url: URL) throws(CassetteError) {
        try write(to: url) { (append) throws(CassetteError) in try append(bytes) }
    }

    /// Replaces the file at `url` atomically with everything `produce` hands to `append`. Each chunk goes
    /// to the temporary file as it comes, so a large document never has to be held whole in memory;
    /// when `produce` throws, the destination is left untouched and the error is rethrown.
    static func write(
        to url: URL, _ produce: (_ append: ([UInt8]) throws(CassetteError) -> Void) throws(CassetteError) -> Void
    ) throws(CassetteError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure(url, "cannot create a temporary file in \(folder.path)") }
        var succeeded = false
        var isOpen = true
        defer {
            if isOpen { close(descriptor) }
            if !succeeded { unlink(temporary.path) }
        }
        var written = 0
        try produce { (bytes) throws(CassetteError) in
            guard writeAll(bytes, to: descriptor) else {
                throw failure(url, "could not write \(bytes.count) bytes after the first \(written)")
            }
            written += bytes.count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        isOpen = false
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
