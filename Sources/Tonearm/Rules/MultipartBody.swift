/// One part of a multipart body: its header fields and its content.
struct MultipartPart: Sendable {
    var headers: [HeaderField]
    var body: [UInt8]
}

/// Splits a `multipart/*` body (RFC 2046) into its parts, on the bytes.
enum MultipartBody {
    /// The parts of `body`, or `nil` when `contentType` is not `multipart/*` with a boundary, or the body
    /// holds no delimiter. A part whose header block never ends is left out; text after the closing
    /// delimiter is ignored, as the RFC says.
    static func parts(contentType: String?, body: [UInt8]) -> [MultipartPart]? {
        guard let contentType, let boundary = boundary(in: contentType) else { return nil }
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        guard var start = find(delimiter, in: body, from: 0) else { return nil }
        var parts: [MultipartPart] = []
        while true {
            var cursor = start + delimiter.count
            // `--` after a delimiter closes the body.
            if cursor + 1 < body.count, body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") { break }
            // The rest of the delimiter line (transport padding), then its line break.
            guard let lineEnd = find(Array("\r\n".utf8), in: body, from: cursor) else { break }
            cursor = lineEnd + 2
            guard let next = find(Array("\r\n".utf8) + delimiter, in: body, from: cursor) else { break }
            if let part = part(Array(body[cursor..<next])) { parts.append(part) }
            start = next + 2
        }
        return parts
    }

    /// The `boundary` parameter of a `multipart/*` media type, unquoted; `nil` without one, or with one
    /// longer than RFC 2046's 70 characters.
    static func boundary(in contentType: String) -> String? {
        guard MediaType.essence(of: contentType).hasPrefix("multipart/"), let value = MediaType.parameter("boundary", in: contentType) else {
            return nil
        }
        // RFC 2046 allows 1 to 70 characters; a longer one is refused, which also bounds the naive
        // search for it to 70 comparisons a byte whatever a client sends.
        return (1...70).contains(value.utf8.count) ? value : nil
    }

    /// A part's header block (up to the empty line) and content.
    private static func part(_ bytes: [UInt8]) -> MultipartPart? {
        // A part with no headers starts with its empty line.
        if bytes.starts(with: Array("\r\n".utf8)) { return MultipartPart(headers: [], body: Array(bytes.dropFirst(2))) }
        guard let end = find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else { return nil }
        var headers: [HeaderField] = []
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(HeaderField(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingHTTPWhitespace))
        }
        return MultipartPart(headers: headers, body: Array(bytes[(end + 4)...]))
    }

    /// The offset of the first `needle` in `haystack` at or after `from`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        var index = from
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
