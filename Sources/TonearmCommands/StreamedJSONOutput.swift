import Foundation
import Tonearm

/// JSON written to standard output as it is produced, through a small buffer, so printing a large
/// value never holds an encoded copy of the whole document. Strings are escaped by the core's one JSON
/// string writer (`CanonicalString`).
struct StreamedJSONOutput {
    /// Buffered bytes are written out once there are this many.
    private static let flushSize = 1 << 16
    private var buffer: [UInt8] = []

    init() {
        buffer.reserveCapacity(Self.flushSize * 2)
    }

    /// Appends JSON text written by the caller (punctuation, white space).
    mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Appends `bytes` as a quoted JSON string, decoded as `String(decoding:as:)` would (ill-formed
    /// UTF-8 as U+FFFD) a piece at a time. Pieces end before an ASCII byte, which never belongs to a
    /// multi-byte sequence, so decoding piece by piece gives the same text as decoding the whole.
    mutating func appendString(decoding bytes: [UInt8]) throws {
        buffer.append(UInt8(ascii: "\""))
        var start = 0
        while start < bytes.count {
            var end = min(start + Self.flushSize, bytes.count)
            while end < bytes.count, bytes[end] >= 0x80 { end += 1 }
            CanonicalString.appendEscaped(String(decoding: bytes[start..<end], as: UTF8.self), to: &buffer)
            if buffer.count >= Self.flushSize { try writeBuffer() }
            start = end
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Writes out what is buffered.
    mutating func flush() throws {
        try writeBuffer()
    }

    private mutating func writeBuffer() throws {
        guard !buffer.isEmpty else { return }
        try FileHandle.standardOutput.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
