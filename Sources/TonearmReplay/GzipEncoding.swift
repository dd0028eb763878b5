import CZlib
import Foundation

/// Compresses bodies as gzip, for answers to clients that accept it (WireMock gzips its stub answers;
/// the server does the same for mappings).
package enum GzipEncoding {
    /// `bytes` as a gzip stream, or `nil` when zlib fails.
    package static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard tonearm_deflate_init(&stream, Z_DEFAULT_COMPRESSION, 15 + 16) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[0..<Int(stream.total_out)])
    }

    /// Whether an `Accept-Encoding` value accepts gzip: a `gzip` or `*` coding without `q=0`.
    package static func accepts(_ acceptEncoding: String) -> Bool {
        acceptEncoding.split(separator: ",").contains { coding in
            let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, name == "gzip" || name == "*" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) }
            return weight.map { $0 > 0 } ?? true
        }
    }
}
