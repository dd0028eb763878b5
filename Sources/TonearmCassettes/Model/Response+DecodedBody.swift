import Tonearm

extension Response {
    /// This response carrying `body` as plain bytes: `Content-Encoding` dropped and `Content-Length`
    /// (when present) restated, so the headers describe the bytes sent. The one way both a body stored
    /// decoded (``RecordedContentEncoding``) and one inflated for URLSession (`ContentDecoding`) are
    /// made consistent.
    package func withDecodedBody(_ body: [UInt8]) -> Response {
        var decoded = self
        decoded.body = body
        decoded.headers = headers.compactMap { field in
            switch field.name.lowercased() {
            case "content-encoding": nil
            case "content-length": HeaderField(field.name, String(body.count))
            default: field
            }
        }
        return decoded
    }
}
