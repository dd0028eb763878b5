import Foundation

/// Standard output or standard error, written so that a reader going away never stops the process.
///
/// Foundation's `FileHandle.write(_:)` traps on any write error, and SwiftNIO ignores `SIGPIPE`
/// process-wide, so once a reader closed its end (`tonearm serve | head -1`, a test harness dropping
/// the server's pipe) the next line was an `EPIPE` and a crash. Here a failed write drops the line.
package struct StandardStream: Sendable {
    /// Standard output.
    package static let output = StandardStream(descriptor: STDOUT_FILENO)
    /// Standard error.
    package static let error = StandardStream(descriptor: STDERR_FILENO)

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `line` and a line feed; `false` when the stream could not take all of it.
    @discardableResult
    package func writeLine(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        return write(bytes)
    }

    /// Writes all of `bytes`, retrying interrupted and partial writes; `false` on any other error.
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
