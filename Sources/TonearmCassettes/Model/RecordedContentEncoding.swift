import Foundation
import Tonearm

/// The one rule, for every format, on a recorded `Content-Encoding`: it must describe the stored body.
///
/// Tools differ in what they store. VCR keeps the gzip bytes with their header; URLSession-based
/// recorders (DVR, Vinyl) and HAR writers store the body already decoded but often keep the header;
/// Polly.JS keeps the gzip bytes as base64. Replaying a decoded body marked `gzip` makes every client
/// fail to inflate it, so when the stored bytes are visibly not in the named encoding the header is
/// dropped, `Content-Length` restated, and a warning (which `tonearm lint` reports) says so. Bodies
/// that are in the encoding keep both, and each consumer decodes them as its client expects.
enum RecordedContentEncoding {
    /// `entry` with its response made consistent, and the warning when something was changed.
    static func consistent(_ entry: CassetteEntry, file: String?, path: String) -> (CassetteEntry, ImportWarning?) {
        guard case .response(let response) = entry.track.outcome,
            let encoding = response.headers.first(named: "Content-Encoding"),
            !response.body.isEmpty, !isEncoded(response.body, as: encoding)
        else { return (entry, nil) }
        var changed = entry
        changed.track.outcome = .response(response.withDecodedBody(response.body))
        let warning = ImportWarning(
            file: file, path: path,
            message: "dropped \"Content-Encoding: \(encoding)\": the recorded body is not \(encoding)-encoded (stored decoded), so it is replayed as stored")
        return (changed, warning)
    }

    /// Whether `body` can be in `encoding` (the last one applied, when several are listed). gzip and
    /// zstd have magic numbers and zlib a checked header; raw deflate, brotli and unknown codings have
    /// none, so only a body that is plainly readable text is taken as not encoded.
    static func isEncoded(_ body: [UInt8], as encoding: String) -> Bool {
        let last = encoding.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch last {
        case "", "identity": return true
        case "gzip", "x-gzip": return body.starts(with: [0x1F, 0x8B])
        case "zstd": return body.starts(with: [0x28, 0xB5, 0x2F, 0xFD])
        case "deflate": return hasZlibHeader(body) || BodyStorage.readableText(body) == nil
        default: return BodyStorage.readableText(body) == nil
        }
    }

    /// RFC 1950: compression method 8 and a header that is a multiple of 31.
    private static func hasZlibHeader(_ body: [UInt8]) -> Bool {
        guard body.count >= 2 else { return false }
        return body[0] & 0x0F == 8 && (UInt16(body[0]) << 8 | UInt16(body[1])) % 31 == 0
    }
}
