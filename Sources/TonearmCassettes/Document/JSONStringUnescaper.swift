/// Decodes the content of a JSON string that contains backslash escapes.
enum JSONStringUnescaper {
    static func unescape(_ content: UnsafeBufferPointer<UInt8>, baseOffset: Int) throws(JSONSyntaxProblem) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try decodeUnicodeEscape(content, at: &index, baseOffset: baseOffset)
                appendUTF8(scalar, to: &output)
            default: output.append(escape)  // \" \\ \/ — the scanner allowed only valid escapes
            }
        }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw JSONSyntaxProblem(offset: baseOffset, expected: "valid UTF-8 text in the string", found: nil)
        }
        return text
    }

    /// Reads the four hex digits at `index` (just after `\u`), and a following low surrogate if needed.
    private static func decodeUnicodeEscape(
        _ content: UnsafeBufferPointer<UInt8>, at index: inout Int, baseOffset: Int
    ) throws(JSONSyntaxProblem) -> Unicode.Scalar {
        let high = hex4(content, index)
        index += 4
        if let scalar = Unicode.Scalar(high) { return scalar }
        // A surrogate: it must be a high surrogate followed by \u and a low surrogate.
        guard high >= 0xD800, high < 0xDC00, index + 6 <= content.count,
            content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u")
        else {
            throw JSONSyntaxProblem(offset: baseOffset + index - 6, expected: "a complete UTF-16 surrogate pair", found: "a lone surrogate")
        }
        let low = hex4(content, index + 2)
        guard low >= 0xDC00, low < 0xE000,
            let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        else {
            throw JSONSyntaxProblem(offset: baseOffset + index, expected: "a low surrogate after a high surrogate", found: nil)
        }
        index += 6
        return scalar
    }

    private static func hex4(_ content: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(hexValue(content[index + offset]) ?? 0) }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        output.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
    }
}
