/// The percent-encoding rules of this module: normalising paths and hosts (RFC 3986 §6.2.2.2), making
/// query and form components canonical, and decoding for display.
///
/// Every rule comes as a scan, which tells whether the bytes are already in their final form, and a
/// writer. Callers copy bytes that are already final, as almost all are, and pay for the writer only
/// on the rare input that needs it.
enum PercentEncoding {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    // MARK: Paths (RFC 3986 §6.2.2.2)

    /// Whether `bytes[index...]` starts with an escape that path normalisation keeps exactly as it is:
    /// uppercase hex digits for a byte that is not unreserved.
    @inline(__always)
    static func isCanonicalPathEscape(_ bytes: Bytes, at index: Int, end: Int) -> Bool {
        guard index &+ 2 < end else { return false }
        let high = bytes[index &+ 1], low = bytes[index &+ 2]
        guard URLByteClass.isUppercaseHex(high), URLByteClass.isUppercaseHex(low),
            let h = URLByteClass.hexValue(high), let l = URLByteClass.hexValue(low)
        else { return false }
        return !URLByteClass.isUnreserved(h &<< 4 | l)
    }

    /// Writes the percent-normalised form of a path (or host) byte run to `output` at `start` and returns
    /// the end index. `output` needs room for three bytes per input byte.
    ///
    /// Escapes of unreserved bytes are decoded because RFC 3986 §2.3 makes them equivalent; escapes of
    /// everything else stay encoded, since decoding `%2F` into `/` would change the path's structure.
    /// A `%` that starts no valid escape is encoded as `%25` rather than kept: a kept stray `%` could
    /// combine with bytes decoded next to it into a new escape, and normalising would not be idempotent.
    static func normalizePathBytes(
        _ bytes: Bytes, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int, lowercase: Bool,
        encodeDisallowed: Bool
    ) -> Int {
        var out = start
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index &+ 2 < count, let h = URLByteClass.hexValue(bytes[index &+ 1]),
                    let l = URLByteClass.hexValue(bytes[index &+ 2])
                {
                    let value = h &<< 4 | l
                    if URLByteClass.isUnreserved(value) {
                        output[out] = lowercase ? asciiLowercased(value) : value
                        out &+= 1
                    } else {
                        out = writeEscape(value, into: output, at: out)
                    }
                    index &+= 3
                    continue
                }
                out = writeEscape(byte, into: output, at: out)
            } else if encodeDisallowed && !URLByteClass.isPathLiteral(byte) {
                out = writeEscape(byte, into: output, at: out)
            } else {
                output[out] = lowercase ? asciiLowercased(byte) : byte
                out &+= 1
            }
            index &+= 1
        }
        return out
    }

    // MARK: Query and form components

    /// Scans one query or form component from `start` to `end`, or to the next "&" when `stopAtAmpersand`
    /// and "=" when `stopAtEquals`: where it ends, whether it is already canonical (only unreserved bytes
    /// and uppercase escapes of other bytes), and how many bytes its canonical form has.
    ///
    /// Finding the end and classifying happen in one pass because this runs on every byte of every query.
    /// The exact length lets the writer fill a buffer of exactly the final size.
    @inline(__always)
    static func formComponentScan(
        _ bytes: Bytes, from start: Int, to end: Int, stopAtAmpersand: Bool, stopAtEquals: Bool
    ) -> (end: Int, canonical: Bool, length: Int) {
        let flags = URLByteClass.table.utf8Start
        let stops = (stopAtAmpersand ? 1 : 0) + (stopAtEquals ? 2 : 0)
        var canonical = true
        var length = 0
        var index = start
        while true {
            // Most bytes are unreserved: skip a run of them with one table load per byte, walking a
            // pointer (one increment and compare per byte rather than index arithmetic). Safe: the
            // pointer stays within base + index ..< base + end, inside `bytes`.
            let runStart = index
            if let base = bytes.baseAddress {
                var next = base + index
                let stop = base + end
                while next < stop && flags[Int(next.pointee)] & URLByteClass.unreserved != 0 { next += 1 }
                index = next - base
            }
            length &+= index &- runStart
            if index >= end { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") && stops & 1 != 0 { break }
            if byte == UInt8(ascii: "=") && stops & 2 != 0 { break }
            if byte == UInt8(ascii: "%"), index &+ 2 < end,
                let h = URLByteClass.hexValue(bytes[index &+ 1]),
                let l = URLByteClass.hexValue(bytes[index &+ 2])
            {
                if URLByteClass.isUnreserved(h &<< 4 | l) {
                    length &+= 1
                    canonical = false
                } else {
                    length &+= 3
                    if !URLByteClass.isUppercaseHex(bytes[index &+ 1]) || !URLByteClass.isUppercaseHex(bytes[index &+ 2]) {
                        canonical = false
                    }
                }
                index &+= 3
                continue
            }
            // "+", a stray "%" and every other byte become a three-byte escape.
            length &+= 3
            canonical = false
            index &+= 1
        }
        return (index, canonical, length)
    }

    /// ``formComponentScan(_:from:to:stopAtAmpersand:stopAtEquals:)`` of a whole component.
    @inline(__always)
    static func formComponentScan(_ bytes: Bytes) -> (canonical: Bool, length: Int) {
        let scan = formComponentScan(bytes, from: 0, to: bytes.count, stopAtAmpersand: false, stopAtEquals: false)
        return (scan.canonical, scan.length)
    }

    /// Writes the canonical form of one query or form component at `start` and returns its end. `canonical`
    /// is what ``formComponentScan(_:)`` found, and `output` needs room for the length it found.
    ///
    /// "+" is a space, escapes are decoded, and the resulting bytes are re-encoded with only unreserved
    /// bytes left literal. Decoding and re-encoding happen in one pass: a decoded byte is immediately
    /// re-encoded, so no intermediate buffer is needed. A stray "%" decodes to itself, so it becomes "%25".
    @inline(__always)
    static func writeFormComponent(
        _ bytes: Bytes, canonical: Bool, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        if canonical { return URLBytes.copy(bytes, into: output, at: start) }
        var out = start
        var index = 0
        let count = bytes.count
        while index < count {
            var byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                byte = UInt8(ascii: " ")
            } else if byte == UInt8(ascii: "%"), index &+ 2 < count,
                let h = URLByteClass.hexValue(bytes[index &+ 1]),
                let l = URLByteClass.hexValue(bytes[index &+ 2])
            {
                byte = h &<< 4 | l
                index &+= 2
            }
            if URLByteClass.isUnreserved(byte) {
                output[out] = byte
                out &+= 1
            } else {
                out = writeEscape(byte, into: output, at: out)
            }
            index &+= 1
        }
        return out
    }

    /// The canonical form of one component as a String.
    static func canonicalFormComponent(_ bytes: Bytes) -> String {
        let scan = formComponentScan(bytes)
        if scan.canonical { return String(decoding: bytes, as: UTF8.self) }
        return URLBytes.building(capacity: scan.length) { output in
            writeFormComponent(bytes, canonical: false, into: output, at: 0)
        }
    }

    // MARK: Decoding

    /// Percent-decodes `bytes` for display. Escapes that do not decode are kept as written, and decoded
    /// bytes that are not valid UTF-8 become U+FFFD, because the result is only ever shown to people.
    static func decoded(_ bytes: Bytes) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        return URLBytes.building(capacity: bytes.count) { output in
            var out = 0
            var index = 0
            let count = bytes.count
            while index < count {
                var byte = bytes[index]
                if byte == UInt8(ascii: "%"), index &+ 2 < count,
                    let h = URLByteClass.hexValue(bytes[index &+ 1]),
                    let l = URLByteClass.hexValue(bytes[index &+ 2])
                {
                    byte = h &<< 4 | l
                    index &+= 2
                }
                output[out] = byte
                out &+= 1
                index &+= 1
            }
            return out
        }
    }

    // MARK: Shared

    @inline(__always)
    static func writeEscape(_ byte: UInt8, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        output[index] = UInt8(ascii: "%")
        output[index &+ 1] = URLByteClass.hexDigit(byte &>> 4)
        output[index &+ 2] = URLByteClass.hexDigit(byte & 0x0F)
        return index &+ 3
    }

    @inline(__always)
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        URLByteClass.isASCIIUppercase(byte) ? byte | 0x20 : byte
    }
}
