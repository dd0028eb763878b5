import Tonearm

/// What bash's `printf 'FORMAT'` writes, for the escapes ``RequestText/curlCommand(for:)`` uses.
enum PrintfFormat {
    /// The output of `printf` with `format` and no arguments: `\\`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f`,
    /// `\v`, `\"`, `\xHH` and octal `\NNN` escapes, and `%%`; any other conversion is refused.
    static func output(of format: ShellWord, text: PastedText) throws(RequestTextError) -> [UInt8] {
        let bytes = format.bytes
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "%") else {
                    throw text.error(
                        at: format.offset, expected: "a printf format whose only conversion is `%%`", found: "`\(format.text)`")
                }
                output.append(byte)
                index += 2
                continue
            }
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): output.append(escape)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "a"): output.append(0x07)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "x"):
                var value: UInt8 = 0
                var digits = 0
                while digits < 2, index < bytes.count, let digit = URLByteClass.hexValue(bytes[index]) {
                    value = value << 4 | digit
                    digits += 1
                    index += 1
                }
                if digits == 0 { output += [byte, escape] } else { output.append(value) }
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(escape - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                    index += 1
                }
                output.append(UInt8(truncatingIfNeeded: value))
            default:
                output += [byte, escape]
            }
        }
        return output
    }
}
