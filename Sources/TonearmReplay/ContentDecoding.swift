import CZlib
import Tonearm
import TonearmCassettes

/// Decodes `gzip` and `deflate` response bodies: before URLSession hands them to its client, and before
/// the local server rewrites URLs in them.
///
/// Cassettes keep bodies exactly as the server sent them (a VCR cassette stores the gzip bytes and the
/// `Content-Encoding: gzip` header). URLSession's contract is that `data(for:)` returns decoded bytes,
/// and it decodes only what its own HTTP stack received, never what a `URLProtocol` delivers; so the
/// protocol decodes, drops `Content-Encoding` and restates `Content-Length`, as URLSession would have.
package enum ContentDecoding {
    /// `response` with its body decoded, or unchanged when it is not gzip/deflate encoded or the body
    /// does not decode (then the client gets the recorded bytes, as a broken server would send them).
    package static func decoded(_ response: Response) -> Response {
        guard let encoding = response.headers.first(named: "content-encoding")?.lowercased()
            .trimmingCharacters(in: .whitespaces),
            encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate",
            let body = inflate(response.body)
        else { return response }
        return response.withDecodedBody(body)
    }

    /// What inflating a body with a size limit gave.
    package enum Inflated: Sendable, Equatable {
        /// The inflated bytes.
        case bytes([UInt8])
        /// The stream is neither gzip nor zlib, or is corrupt or cut short.
        case corrupt
        /// The inflated bytes would pass the limit (a small body that inflates enormously: a zip bomb).
        case tooLarge
    }

    /// Whether `headers` say the body is gzip encoded (`gzip` or `x-gzip`, any case).
    package static func isGzip(_ headers: [HeaderField]) -> Bool {
        guard let encoding = headers.first(named: "content-encoding")?.lowercased().trimmingCharacters(in: .whitespaces)
        else { return false }
        return encoding == "gzip" || encoding == "x-gzip"
    }

    /// The inflated bytes of a gzip or zlib stream, stopping as soon as they would pass `limit` bytes: what
    /// a server inflating a client's body needs, so a client cannot make it grow beyond its body limit.
    package static func inflate(_ compressed: [UInt8], limit: Int) -> Inflated {
        var tooLarge = false
        guard let bytes = inflate(compressed, stoppingPast: limit, tooLarge: &tooLarge) else { return tooLarge ? .tooLarge : .corrupt }
        return .bytes(bytes)
    }

    /// The inflated bytes of a gzip or zlib stream (detected from its header), or `nil` when they are
    /// neither or are corrupt.
    package static func inflate(_ compressed: [UInt8]) -> [UInt8]? {
        var tooLarge = false
        return inflate(compressed, stoppingPast: Int.max, tooLarge: &tooLarge)
    }

    private static func inflate(_ compressed: [UInt8], stoppingPast limit: Int, tooLarge: inout Bool) -> [UInt8]? {
        guard !compressed.isEmpty else { return [] }
        var stream = z_stream()
        // 15 window bits + 32: accept a gzip or a zlib header, whichever the stream has.
        guard tonearm_inflate_init(&stream, 15 + 32) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status = Z_OK
        compressed.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                guard produced <= limit - output.count else {
                    tooLarge = true
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK
        }
        return status == Z_STREAM_END && !tooLarge ? output : nil
    }
}
