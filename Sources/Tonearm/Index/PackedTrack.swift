/// A small track's compact byte form, as ``TrackStore`` keeps it: lengths as LEB128 varints, strings as
/// their UTF-8 bytes, no padding, no per-field allocation.
///
/// Layout: a flags byte (bit 0: a name follows at the end), the method, URL, request headers (a count,
/// then name and value per field), request body, status (its bit pattern), response headers, response
/// body, then the name. Only tracks answering with a response, without a delay, pacing or WebSocket conversation and outside any scenario
/// have a packed form; the store keeps every other track as a value.
enum PackedTrack {
    private static let hasName: UInt8 = 1

    /// Appends `track`'s packed form to `bytes`; `false` (bytes then unspecified) when it has none.
    static func encode(_ track: Track, into bytes: inout [UInt8]) -> Bool {
        guard case .response(let response) = track.outcome, track.delay == nil, track.scenario == nil, track.pacing == nil,
            track.webSocket == nil
        else { return false }
        bytes.append(track.name == nil ? 0 : hasName)
        appendString(track.request.method, to: &bytes)
        appendString(track.request.url, to: &bytes)
        appendHeaders(track.request.headers, to: &bytes)
        appendBytes(track.request.body, to: &bytes)
        appendVarint(UInt64(bitPattern: Int64(response.status)), to: &bytes)
        appendHeaders(response.headers, to: &bytes)
        appendBytes(response.body, to: &bytes)
        if let name = track.name { appendString(name, to: &bytes) }
        return true
    }

    /// The track packed at `start` (written by ``encode(_:into:)``, so well formed).
    ///
    /// When the track answers `request`, its method and URL are usually byte for byte the request's:
    /// then the request's strings are handed back (one retain) instead of copies (an allocation, a
    /// UTF-8 validation and later a free for a URL longer than 15 bytes).
    @inline(__always)
    static func decode(_ start: UnsafePointer<UInt8>, answering request: Request? = nil) -> Track {
        var reader = Reader(next: start)
        let flags = reader.next.pointee
        reader.next += 1
        let method = reader.string(reusing: request?.method)
        let url = reader.string(reusing: request?.url)
        let requestHeaders = reader.headers()
        let requestBody = reader.bytes()
        let status = Int(truncatingIfNeeded: Int64(bitPattern: reader.varint()))
        let responseHeaders = reader.headers()
        let responseBody = reader.bytes()
        let name = flags & hasName != 0 ? reader.string() : nil
        return Track(
            request: Request(method: method, url: url, headers: requestHeaders, body: requestBody),
            response: Response(status: status, headers: responseHeaders, body: responseBody), name: name)
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }

    private static func appendBytes(_ body: [UInt8], to bytes: inout [UInt8]) {
        appendVarint(UInt64(body.count), to: &bytes)
        bytes.append(contentsOf: body)
    }

    private static func appendHeaders(_ headers: [HeaderField], to bytes: inout [UInt8]) {
        appendVarint(UInt64(headers.count), to: &bytes)
        for field in headers {
            appendString(field.name, to: &bytes)
            appendString(field.value, to: &bytes)
        }
    }

    /// Reads fields back in the order they were appended.
    private struct Reader {
        var next: UnsafePointer<UInt8>

        mutating func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = next.pointee
                next += 1
                value |= UInt64(byte & 0x7F) &<< shift
                if byte < 0x80 { return value }
                shift &+= 7
            }
        }

        mutating func buffer() -> UnsafeBufferPointer<UInt8> {
            let count = Int(truncatingIfNeeded: varint())
            defer { next += count }
            return UnsafeBufferPointer(start: next, count: count)
        }

        mutating func string() -> String { String(decoding: buffer(), as: UTF8.self) }

        /// The next string: `candidate` itself when it has exactly these bytes (equal bytes make an
        /// equal string), else a new one.
        @inline(__always)
        mutating func string(reusing candidate: String?) -> String {
            let bytes = buffer()
            if var candidate, candidate.withUTF8({ URLBytes.equal($0, bytes) }) { return candidate }
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func bytes() -> [UInt8] {
            let bytes = buffer()
            // Most packed bodies are empty: the empty array literal skips the generic copy.
            return bytes.isEmpty ? [] : Array(bytes)
        }

        @inline(__always)
        mutating func headers() -> [HeaderField] {
            let count = Int(truncatingIfNeeded: varint())
            guard count > 0 else { return [] }
            return headers(count: count)
        }

        /// `count` (at least one) header fields; apart from ``headers()`` so that the common empty case
        /// inlines into decoding.
        @inline(never)
        private mutating func headers(count: Int) -> [HeaderField] {
            var fields: [HeaderField] = []
            fields.reserveCapacity(count)
            for _ in 0..<count {
                let name = string()
                fields.append(HeaderField(name, string()))
            }
            return fields
        }
    }
}
