/// Member order of RFC 8785 §3.2.3: names compared as arrays of UTF-16 code units.
///
/// The canonicaliser compares names in their already written canonical (escaped UTF-8) form to avoid
/// decoding every key. Two facts make that possible:
/// - UTF-8 byte order equals code point order, and UTF-16 order differs from code point order only
///   in putting U+E000…U+FFFF *after* the supplementary planes (whose surrogates are 0xD800…0xDFFF).
///   Those BMP characters are exactly the ones whose UTF-8 lead byte is 0xEE or 0xEF, and
///   supplementary characters have lead bytes 0xF0…0xF4, so bumping 0xEE/0xEF above 0xF4 at the
///   first differing byte fixes the order.
/// - Escapes stand for characters below U+0080 but are spelled with a backslash, which must not be
///   compared as a byte; they are decoded one at a time.
enum CanonicalKeyOrder {
    /// Three-way comparison (< 0, 0, > 0) of two canonical name byte ranges (quotes excluded).
    /// Zero means the names are the same sequence of scalars.
    static func compare(
        _ lhs: UnsafePointer<UInt8>, _ lhsCount: Int, _ rhs: UnsafePointer<UInt8>, _ rhsCount: Int
    ) -> Int {
        var i = 0
        var j = 0
        while i < lhsCount && j < rhsCount {
            let a = lhs[i]
            let b = rhs[j]
            if a == b && a != UInt8(ascii: "\\") {
                i += 1
                j += 1
                continue
            }
            let (aValue, aLength) = unit(lhs + i, lhsCount - i)
            let (bValue, bLength) = unit(rhs + j, rhsCount - j)
            if aValue != bValue {
                return aValue < bValue ? -1 : 1
            }
            i += aLength
            j += bLength
        }
        let lhsLeft = lhsCount - i
        let rhsLeft = rhsCount - j
        return lhsLeft == rhsLeft ? 0 : (lhsLeft == 0 ? -1 : 1)
    }

    /// The sort weight of the unit at `p`: the character an escape stands for, an ASCII byte, or a
    /// UTF-8 byte adjusted for UTF-16 order; plus how many bytes to step over when equal.
    @inline(__always)
    private static func unit(_ p: UnsafePointer<UInt8>, _ available: Int) -> (UInt32, Int) {
        let byte = p[0]
        if byte == UInt8(ascii: "\\") && available >= 2 {
            switch p[1] {
            case UInt8(ascii: "b"): return (0x08, 2)
            case UInt8(ascii: "t"): return (0x09, 2)
            case UInt8(ascii: "n"): return (0x0A, 2)
            case UInt8(ascii: "f"): return (0x0C, 2)
            case UInt8(ascii: "r"): return (0x0D, 2)
            case UInt8(ascii: "u") where available >= 6:
                // Canonical output only ever has \u00xx with lower-case hex.
                return (UInt32(hexValue(p[4]) << 4 | hexValue(p[5])), 6)
            default: return (UInt32(p[1]), 2)  // \" or \\
            }
        }
        if byte == 0xEE || byte == 0xEF {
            return (UInt32(byte) + 0x10, 1)
        }
        return (UInt32(byte), 1)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8 {
        byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : (byte | 0x20) &- UInt8(ascii: "a") &+ 10
    }

    /// UTF-16 order of two Swift strings, for values built in code rather than parsed.
    static func compare(_ lhs: String, _ rhs: String) -> Int {
        var left = lhs.utf16.makeIterator()
        var right = rhs.utf16.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (a?, b?):
                if a != b { return a < b ? -1 : 1 }
            }
        }
    }
}
