/// Decodes the content of a JSON string that contains backslash escapes (the reader has already
/// checked that every escape is well formed and the other bytes are valid UTF-8).
enum JSONStringDecoder {
    /// `content` (between the quotes) decoded; `baseOffset` is where it starts in `document`, for errors.
    static func decode(
        _ content: UnsafeBufferPointer<UInt8>, baseOffset: Int, in document: UnsafeBufferPointer<UInt8>
    ) throws(JSONSyntaxError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            // Copy the run up to the next backslash in one go; escapes are the exception.
            var runEnd = index
            while runEnd < content.count, content[runEnd] != UInt8(ascii: "\\") { runEnd &+= 1 }
            if runEnd > index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: content[index..<runEnd]))
            }
            index = runEnd
            guard index + 1 < content.count else {
                if index < content.count { output.append(content[index]) }
                break
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
                guard let scalar = unicodeEscape(content, at: &index) else {
                    throw JSONSyntaxError(
                        at: baseOffset + index - 6, in: UnsafeRawBufferPointer(document),
                        expected: "a complete UTF-16 surrogate pair", found: "a lone surrogate")
                }
                appendUTF8(scalar, to: &output)
            default: output.append(escape)  // \" \\ \/ — the reader allowed only valid escapes
            }
        }
        // The reader validated the unescaped bytes and escapes only produce scalars: valid UTF-8.
        return String(decoding: output, as: UTF8.self)
    }

    /// The scalar of the four hex digits at `index` (just after `\u`), with a following low surrogate
    /// when it is a high one; `nil` for a lone or mismatched surrogate.
    private static func unicodeEscape(_ content: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Unicode.Scalar? {
        guard index + 4 <= content.count else { return nil }
        let high = hex4(content, index)
        index += 4
        if let scalar = Unicode.Scalar(high) { return scalar }
        guard high >= 0xD800, high < 0xDC00, index + 6 <= content.count,
            content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u")
        else { return nil }
        let low = hex4(content, index + 2)
        guard low >= 0xDC00, low < 0xE000 else { return nil }
        index += 6
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    /// Appends the UTF-8 bytes of `scalar` without the intermediate arrays `UTF8.encode` would need.
    @inline(__always)
    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case ..<0x80:
            output.append(UInt8(truncatingIfNeeded: value))
        case ..<0x800:
            output.append(UInt8(truncatingIfNeeded: 0xC0 | value >> 6))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        case ..<0x10000:
            output.append(UInt8(truncatingIfNeeded: 0xE0 | value >> 12))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        default:
            output.append(UInt8(truncatingIfNeeded: 0xF0 | value >> 18))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value >> 12 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value >> 6 & 0x3F))
            output.append(UInt8(truncatingIfNeeded: 0x80 | value & 0x3F))
        }
    }

    private static func hex4(_ content: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | UInt32(URLByteClass.hexValue(content[index + offset]) ?? 0) }
        return value
    }
}
