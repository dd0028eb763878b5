/// Byte classes of RFC 3986 §2 and of the form syntax, as one flag byte per byte value.
///
/// A table because these checks run on every byte of every URL on the hot path: one load and one AND,
/// where range comparisons took several branches per byte. The table is a string literal, so it sits
/// in read-only data with no initialisation at run time, no bounds check and no reference counting.
/// A unit test checks every entry against the RFC's character lists.
package enum URLByteClass {
    /// `ALPHA / DIGIT / "-" / "." / "_" / "~"` (RFC 3986 §2.3): the only bytes whose escapes are decoded.
    static let unreserved: UInt8 = 0x01
    /// `pchar / "/"` minus `pct-encoded` (§3.3), without ".": bytes a path keeps literally and that need no
    /// further look. "." is left out so that the path scan stops at it to check for dot segments.
    static let pathPlain: UInt8 = 0x02
    /// `HEXDIG` in either case.
    static let hexDigit: UInt8 = 0x04
    /// Digits and uppercase `A`–`F`: hex digits already in the canonical case (§6.2.2.1).
    static let uppercaseHexDigit: UInt8 = 0x08
    /// ASCII `A`–`Z`, which scheme and host normalisation lowercase.
    static let asciiUppercase: UInt8 = 0x10
    /// "&" and "=", where query and form components end.
    static let formDelimiter: UInt8 = 0x20
    /// "?" and "#", where a path ends.
    static let pathEnd: UInt8 = 0x40

    /// The flags of every byte value, indexed by the byte.
    static var table: StaticString {
        """
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{02}\u{00}\u{40}\u{02}\u{00}\u{22}\u{02}\u{02}\u{02}\u{02}\u{02}\u{02}\u{03}\u{01}\u{02}\
        \u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{0F}\u{02}\u{02}\u{00}\u{22}\u{00}\u{40}\
        \u{02}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{1F}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\
        \u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{13}\u{00}\u{00}\u{00}\u{00}\u{03}\
        \u{00}\u{07}\u{07}\u{07}\u{07}\u{07}\u{07}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\
        \u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{03}\u{00}\u{00}\u{00}\u{03}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\
        \u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}
        """
    }

    @inline(__always)
    static func flags(_ byte: UInt8) -> UInt8 {
        table.utf8Start[Int(byte)]
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool { flags(byte) & unreserved != 0 }

    /// Whether a path keeps `byte` literally: RFC 3986 allows it there unencoded.
    @inline(__always)
    static func isPathLiteral(_ byte: UInt8) -> Bool { flags(byte) & pathPlain != 0 || byte == UInt8(ascii: ".") }

    /// The value of an ASCII hex digit, or `nil`; both cases are accepted on input (RFC 3986 §2.1).
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        guard flags(byte) & hexDigit != 0 else { return nil }
        return byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : (byte | 0x20) &- UInt8(ascii: "a") &+ 10
    }

    /// The uppercase hex digit for a nibble: RFC 3986 §6.2.2.1 makes uppercase the canonical case.
    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ (nibble &- 10)
    }

    @inline(__always)
    static func isUppercaseHex(_ byte: UInt8) -> Bool { flags(byte) & uppercaseHexDigit != 0 }

    @inline(__always)
    static func isASCIIUppercase(_ byte: UInt8) -> Bool { flags(byte) & asciiUppercase != 0 }

    @inline(__always)
    static func isASCIIAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    @inline(__always)
    static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
