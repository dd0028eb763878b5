/// RFC 8785 §3.2.2.2 string escaping, the one JSON string writer: shared by the byte-level
/// canonicaliser, pointer compilation, `JSONValue.canonicalText`, and (through `package` access) the
/// cassette writers and the workload generator, so every JSON text Tonearm writes escapes alike.
///
/// Only `"`, `\` and the C0 controls are escaped; the controls that have a two-character form
/// (`\b \t \n \f \r`) use it and the rest use `\u00xx` with lower-case hex. Everything else, `/` and
/// DEL included, is written as its UTF-8 bytes, with no Unicode normalisation.
package enum CanonicalString {
    static let hexDigits: StaticString = "0123456789abcdef"

    /// The letter after `\` for bytes with a two-character escape, or 0 when there is none.
    @inline(__always)
    static func shortEscape(for byte: UInt8) -> UInt8 {
        switch byte {
        case 0x08: UInt8(ascii: "b")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0C: UInt8(ascii: "f")
        case 0x0D: UInt8(ascii: "r")
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        default: 0
        }
    }

    /// Whether `byte` must be escaped in canonical output.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Calls `emit` with the canonical escape of an ASCII byte that `needsEscape`.
    @inline(__always)
    static func escape(_ byte: UInt8, _ emit: (UInt8) -> Void) {
        let letter = shortEscape(for: byte)
        emit(UInt8(ascii: "\\"))
        if letter != 0 {
            emit(letter)
        } else {
            emit(UInt8(ascii: "u"))
            emit(UInt8(ascii: "0"))
            emit(UInt8(ascii: "0"))
            hexDigits.withUTF8Buffer { hex in
                emit(hex[Int(byte >> 4)])
                emit(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// Appends the canonical form of `string` without the surrounding quotes.
    package static func appendEscaped(_ string: String, to out: inout [UInt8]) {
        for byte in string.utf8 {
            if needsEscape(byte) {
                escape(byte) { out.append($0) }
            } else {
                out.append(byte)
            }
        }
    }

    /// Appends the canonical form of `string` with the surrounding quotes.
    package static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(string, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// The canonical form of `string` with the surrounding quotes.
    package static func quoted(_ string: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(string.utf8.count + 2)
        appendEscaped(string, to: &out)
        out.append(UInt8(ascii: "\""))
        return out
    }
}
