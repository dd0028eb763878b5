import Tonearm

/// Reads a raw HTTP/1.x request: the request line, header lines up to an empty line, then the body.
///
/// Lines may end in CRLF or LF. The body is what follows the empty line: `Content-Length` bytes of it
/// when the field is there (fewer is an error, and only line ends may follow), decoded when
/// `Transfer-Encoding` ends in `chunked`, else all of it. Header fields are kept as written, the framing
/// ones included. The URL is the target when that is absolute (`http://host/x`), else `http://`, the
/// `Host` field and the target: the text does not say whether the request went over TLS, so it is never
/// guessed (not even from a `:443` port).
struct RawHTTPRequestParser {
    private let text: PastedText
    private var bytes: [UInt8] { text.bytes }
    private var index: Int

    init(text: PastedText, start: Int) {
        self.text = text
        self.index = start
    }

    static func request(from text: PastedText, start: Int) throws(RequestTextError) -> Request {
        var parser = RawHTTPRequestParser(text: text, start: start)
        return try parser.read()
    }

    /// The next line without its line end, and its starting offset; `nil` at the end of the text.
    private mutating func nextLine() -> (bytes: ArraySlice<UInt8>, offset: Int)? {
        guard index < bytes.count else { return nil }
        let start = index
        var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        index = min(end + 1, bytes.count)
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return (bytes[start..<end], start)
    }

    private mutating func read() throws(RequestTextError) -> Request {
        guard let requestLine = nextLine() else {
            throw text.error(at: index, expected: "a curl command or an HTTP request line", found: "nothing")
        }
        let (method, target) = try parseRequestLine(requestLine.bytes, offset: requestLine.offset)
        var headers: [HeaderField] = []
        var headerOffsets: [Int] = []
        while let line = nextLine() {
            if line.bytes.isEmpty { break }
            if line.bytes.first == 0x20 || line.bytes.first == 0x09 {
                // An obsolete folded line continues the field before it.
                guard let last = headers.popLast() else {
                    throw text.error(at: line.offset, expected: "a header line `Name: value`", found: "a line starting with a blank")
                }
                let more = String(decoding: line.bytes, as: UTF8.self).trimmingHTTPWhitespace
                headers.append(HeaderField(last.name, last.value.isEmpty ? more : last.value + " " + more))
                continue
            }
            guard let colon = line.bytes.firstIndex(of: UInt8(ascii: ":")), colon > line.bytes.startIndex else {
                throw text.error(
                    at: line.offset, expected: "a header line `Name: value` (or an empty line before the body)",
                    found: "`\(String(decoding: line.bytes, as: UTF8.self))`")
            }
            let name = line.bytes[..<colon]
            if let blank = name.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) {
                throw text.error(at: blank, expected: "a header name without blanks, followed by `:`", found: "a blank")
            }
            headerOffsets.append(line.offset)
            headers.append(
                HeaderField(
                    String(decoding: name, as: UTF8.self),
                    String(decoding: line.bytes[(colon + 1)...], as: UTF8.self).trimmingHTTPWhitespace))
        }
        let body = try readBody(headers: headers, offsets: headerOffsets)
        return Request(method: method, url: try url(target: target, headers: headers, lineOffset: requestLine.offset), headers: headers, body: body)
    }

    private func parseRequestLine(_ line: ArraySlice<UInt8>, offset: Int) throws(RequestTextError) -> (String, ArraySlice<UInt8>) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        let shown = "`\(String(decoding: line, as: UTF8.self))`"
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw text.error(at: offset, expected: "a curl command, or a request line `METHOD /target HTTP/1.1`", found: shown)
        }
        let tokenBytes = Set("!#$%&'*+-.^_`|~".utf8)
        if let bad = parts[0].firstIndex(where: { !(Self.isAlphanumeric($0) || tokenBytes.contains($0)) }) {
            throw text.error(at: bad, expected: "a method name (letters, digits or !#$%&'*+-.^_`|~)", found: shown)
        }
        let version = parts[2]
        let versionValid = version.count >= 6 && version.starts(with: Array("HTTP/".utf8))
            && version.dropFirst(5).allSatisfy { Self.isDigit($0) || $0 == UInt8(ascii: ".") }
        guard versionValid else {
            throw text.error(at: version.startIndex, expected: "an HTTP version like `HTTP/1.1`", found: "`\(String(decoding: version, as: UTF8.self))`")
        }
        return (String(decoding: parts[0], as: UTF8.self), parts[1])
    }

    private func url(target: ArraySlice<UInt8>, headers: [HeaderField], lineOffset: Int) throws(RequestTextError) -> String {
        let targetText = String(decoding: target, as: UTF8.self)
        if target.first == UInt8(ascii: "/") {
            guard let host = headers.first(named: "Host"), !host.isEmpty else {
                throw text.error(
                    at: target.startIndex, expected: "a `Host` header for the target `\(targetText)` (or an absolute target `http://host/…`)",
                    found: "no Host header")
            }
            return "http://" + host + targetText
        }
        let lowered = targetText.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw text.error(
                at: target.startIndex, expected: "a target `/path` or `http://host/path`", found: "`\(targetText)`")
        }
        return targetText
    }

    // MARK: The body

    /// The body; `offsets` are where each of `headers` starts, for errors about them.
    private mutating func readBody(headers: [HeaderField], offsets: [Int]) throws(RequestTextError) -> [UInt8] {
        let codings = headers.values(named: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
        if let last = codings.last, String(last).trimmingHTTPWhitespace.lowercased() == "chunked" {
            return try readChunks()
        }
        let lengths = headers.values(named: "Content-Length")
        guard let first = lengths.first else { return Array(bytes[index...]) }
        guard first.utf8.allSatisfy(Self.isDigit), let length = Int(first), lengths.allSatisfy({ $0 == first }) else {
            let line = headers.firstIndex { $0.name.equalsIgnoringASCIICase("Content-Length") }.map { offsets[$0] } ?? index
            throw text.error(
                at: line, expected: "one Content-Length, a whole number of bytes",
                found: lengths.map { "`\($0)`" }.joined(separator: ", "))
        }
        let available = bytes.count - index
        guard available >= length else {
            throw text.error(
                at: bytes.count, expected: "\(length) body bytes (the Content-Length)", found: "\(available)")
        }
        let end = index + length
        if bytes[end...].contains(where: { $0 != 0x0A && $0 != 0x0D }) {
            throw text.error(
                at: end, expected: "the end of the request after \(length) body bytes (the Content-Length)",
                found: "\(bytes.count - end) more bytes")
        }
        return Array(bytes[index..<end])
    }

    private mutating func readChunks() throws(RequestTextError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let line = nextLine() else {
                throw text.error(at: bytes.count, expected: "a chunk size line (the last chunk is `0`)", found: "the end of the text")
            }
            let sizeText = line.bytes.prefix { $0 != UInt8(ascii: ";") }.drop { $0 == 0x20 }
            var size = 0
            var digits = 0
            for byte in sizeText where byte != 0x20 && byte != 0x09 {
                guard let digit = URLByteClass.hexValue(byte), digits < 15 else {
                    throw text.error(
                        at: line.offset, expected: "a chunk size in hexadecimal",
                        found: "`\(String(decoding: line.bytes, as: UTF8.self))`")
                }
                size = size << 4 | Int(digit)
                digits += 1
            }
            guard digits > 0 else {
                throw text.error(at: line.offset, expected: "a chunk size in hexadecimal", found: "an empty line")
            }
            if size == 0 {
                // Trailer fields, up to an empty line or the end, are not part of the body.
                while let trailer = nextLine(), !trailer.bytes.isEmpty {}
                return body
            }
            guard bytes.count - index >= size else {
                throw text.error(at: bytes.count, expected: "\(size) bytes of chunk data", found: "\(bytes.count - index)")
            }
            body += bytes[index..<(index + size)]
            index += size
            if index < bytes.count, bytes[index] == 0x0D { index += 1 }
            guard index < bytes.count, bytes[index] == 0x0A else {
                throw text.error(at: index, expected: "a line end after \(size) bytes of chunk data", found: index < bytes.count ? "more data" : "the end of the text")
            }
            index += 1
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
