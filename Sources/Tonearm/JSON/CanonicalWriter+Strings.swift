extension CanonicalWriter {
    /// Copies the string at `pos` (which is its opening quote) in canonical form.
    ///
    /// Runs of bytes that need no change are found eight at a time and copied in one block; only
    /// escapes are decoded and re-encoded. Non-ASCII bytes are validated as strict UTF-8 (no overlong
    /// forms, no surrogates, nothing above U+10FFFF) but copied unchanged, since RFC 8785 forbids
    /// normalisation.
    ///
    /// This inlined part handles the common case, a string of plain ASCII; anything else continues
    /// out of line. A string is never longer in canonical form than in the input, so the room
    /// guarantee (`slack`) covers every write here without capacity checks.
    @inline(__always)
    mutating func copyString() throws(JSONSyntaxError) {
        let start = pos &+ 1
        let stop = Self.plainRunEnd(bytes, from: start, end: end)
        if stop < end && bytes[stop] == UInt8(ascii: "\"") {
            copyPlainString(to: stop)
            return
        }
        try copyStringWithSpecials(plainUpTo: stop)
    }

    /// Copies the string from `pos` (its opening quote) to `stop` (its closing quote), all of whose
    /// bytes are already known to need no change.
    @inline(__always)
    mutating func copyPlainString(to stop: Int) {
        let start = pos &+ 1
        let length = stop &- start
        let destination = out.base + out.count
        destination[0] = UInt8(ascii: "\"")
        Self.copyRun(from: bytes + start, count: length, to: destination + 1, sourceAvailable: end &- start)
        destination[length &+ 1] = UInt8(ascii: "\"")
        out.count &+= length &+ 2
        pos = stop &+ 1
    }

    /// The rest of `copyString` once the first run of plain bytes ended at `stop` with something
    /// other than the closing quote.
    ///
    /// Position and output length live in locals: stores through the output pointer could alias
    /// `self`, which would otherwise force a reload of every field after every byte written.
    @inline(never)
    mutating func copyStringWithSpecials(plainUpTo stop: Int) throws(JSONSyntaxError) {
        let bytes = self.bytes
        let end = self.end
        var base = out.base
        var written = out.count
        var index = stop
        var runStart = pos &+ 1
        base[written] = UInt8(ascii: "\"")
        written &+= 1
        while true {
            guard index < end else { throw error(at: end, "'\"' to end the string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                Self.copyRun(from: bytes + runStart, count: index &- runStart, to: base + written,
                             sourceAvailable: end &- runStart)
                written &+= index &- runStart
                base[written] = UInt8(ascii: "\"")
                out.count = written &+ 1
                pos = index &+ 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                Self.copyRun(from: bytes + runStart, count: index &- runStart, to: base + written,
                             sourceAvailable: end &- runStart)
                out.count = written &+ (index &- runStart)
                pos = index
                try copyEscape()
                base = out.base
                written = out.count
                index = pos
                runStart = index
            } else if byte < 0x20 {
                throw error(at: index, "an escape sequence instead of the raw control character \(Self.hex4(UInt32(byte)))")
            } else {
                index = try skipValidUTF8(from: index)
            }
            index = Self.plainRunEnd(bytes, from: index, end: end)
        }
    }

    /// Copies a run of string bytes. Runs up to 16 bytes (most names and many values) are moved as
    /// two 8-byte words and runs up to 256 bytes word by word, which is cheaper than a call to
    /// `memcpy`; the few extra bytes written land in spare capacity and are overwritten later.
    @inline(__always)
    static func copyRun(
        from source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>,
        sourceAvailable: Int
    ) {
        if count <= 16 && sourceAvailable >= 16 {
            let low = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            let high = UnsafeRawPointer(source + 8).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(destination).storeBytes(of: low, as: UInt64.self)
            UnsafeMutableRawPointer(destination + 8).storeBytes(of: high, as: UInt64.self)
        } else if count <= 256 && (count &+ 7) & ~7 <= sourceAvailable {
            copyWords(from: source, to: destination, count: count)
        } else {
            destination.update(from: source, count: count)
        }
    }

    /// The index of the first byte at or after `start` that is `"`, `\`, a control character or
    /// non-ASCII. Eight bytes are tested per step with the usual "has a zero byte" word trick; a
    /// borrow can only produce false hits *above* a true hit, and the lowest hit is the one used.
    @inline(__always)
    static func plainRunEnd(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let hits = ((word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones) | word) & highs
            if hits != 0 {
                return index &+ (hits.trailingZeroBitCount &>> 3)
            }
            index &+= 8
        }
        while index < end {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return index
            }
            index &+= 1
        }
        return index
    }

    /// Validates the consecutive UTF-8 sequences starting at `start` (a non-ASCII byte) and returns
    /// the index after them.
    mutating func skipValidUTF8(from start: Int) throws(JSONSyntaxError) -> Int {
        var index = start
        while index < end {
            if bytes[index] < 0x80 { return index }
            let length = Self.utf8SequenceLength(bytes, at: index, end: end)
            guard length > 0 else { throw error(at: index, "valid UTF-8") }
            index += length
        }
        return index
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (a non-ASCII byte), or 0 when
    /// it is not well formed: the Unicode well-formedness table (Table 3-7) in code, shared with
    /// `JSONReader`.
    @inline(__always)
    static func utf8SequenceLength(_ bytes: UnsafePointer<UInt8>, at index: Int, end: Int) -> Int {
        let lead = bytes[index]
        var length = 0
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F  // excludes the surrogates U+D800…U+DFFF
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F  // nothing above U+10FFFF
        default: return 0
        }
        guard end - index >= length else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower && second <= upper else { return 0 }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            return 0
        }
        return length
    }

    /// Decodes the escape at `pos` (a backslash) and writes its canonical form.
    mutating func copyEscape() throws(JSONSyntaxError) {
        let escapeStart = pos
        guard pos + 1 < end else { throw error(at: end, "an escape character") }
        let letter = bytes[pos + 1]
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            out.append(UInt8(ascii: "\\"), letter)
        case UInt8(ascii: "/"):
            out.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            out.append(UInt8(ascii: "\\"), letter)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: pos + 2)
            pos += 6
            var scalar = unit
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard pos + 1 < end && bytes[pos] == UInt8(ascii: "\\") && bytes[pos + 1] == UInt8(ascii: "u")
                else {
                    throw error(at: pos, "a \\u escape of a low surrogate to pair with \(Self.hex4(unit))")
                }
                let low = try hexQuad(at: pos + 2)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw error(at: pos, "a low surrogate (\\uDC00 to \\uDFFF) to pair with \(Self.hex4(unit))")
                }
                pos += 6
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw error(at: escapeStart, "a high surrogate before the low surrogate \(Self.hex4(unit))")
            }
            writeScalar(scalar)
            return
        default:
            throw error(at: pos + 1, "an escape character (one of \" \\ / b f n r t u)")
        }
        pos += 2
    }

    /// Reads the four hex digits of a `\u` escape.
    private func hexQuad(at start: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for index in start..<(start + 4) {
            guard index < end else { throw error(at: end, "a hex digit") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(at: index, "a hex digit")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Writes a decoded scalar: escaped if RFC 8785 says so, otherwise as UTF-8.
    private mutating func writeScalar(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            let byte = UInt8(truncatingIfNeeded: scalar)
            if CanonicalString.needsEscape(byte) {
                CanonicalString.escape(byte) { out.append($0) }
            } else {
                out.append(byte)
            }
        case 0x80..<0x800:
            out.append(
                0xC0 | UInt8(truncatingIfNeeded: scalar >> 6),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
            out.append(
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        default:
            out.append(
                0xF0 | UInt8(truncatingIfNeeded: scalar >> 18),
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
            out.append(
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
        }
    }

    /// `\uXXXX` spelling of a code unit for messages.
    static func hex4(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
