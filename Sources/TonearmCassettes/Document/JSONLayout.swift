/// Re-indents and compacts JSON text byte by byte, copying strings and numbers exactly as written.
///
/// Bodies stored as JSON values must give back their exact recorded bytes: a compact body is embedded
/// in a cassette re-indented to fit the file, and compacted again when loaded. Because both steps only
/// touch white space outside strings, `compact(indent(b)) == b` for every compact JSON text `b`.
enum JSONLayout {
    /// `bytes` without white space outside strings.
    ///
    /// Loading a native cassette spends much of its time here (every JSON body is stored indented), so
    /// it writes through a pointer into an array allocated once, and copies a string's bytes in a
    /// tight loop that only looks for the closing quote and backslashes.
    static func compact(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let source = bytes.baseAddress else { return [] }
        let count = bytes.count
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            guard let output = buffer.baseAddress else { return }
            var read = 0, write = 0
            while read < count {
                let byte = source[read]
                read &+= 1
                switch byte {
                case 0x20, 0x0A, 0x0D, 0x09:
                    continue
                case UInt8(ascii: "\""):
                    output[write] = byte
                    write &+= 1
                    // Inside a string: copy through the closing quote, skipping over escaped bytes.
                    while read < count {
                        let inner = source[read]
                        output[write] = inner
                        read &+= 1
                        write &+= 1
                        if inner == UInt8(ascii: "\"") { break }
                        if inner == UInt8(ascii: "\\"), read < count {
                            output[write] = source[read]
                            read &+= 1
                            write &+= 1
                        }
                    }
                default:
                    output[write] = byte
                    write &+= 1
                }
            }
            written = write
        }
    }

    static func hasWhitespaceOutsideStrings(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: return true
            case UInt8(ascii: "\""): inString = true
            default: break
            }
        }
        return false
    }

    /// Appends compact JSON `bytes` pretty-printed (two-space indent, `": "`), the first line continuing
    /// the current one and nested lines indented from `level`.
    static func appendIndented(_ bytes: [UInt8], level: Int, to output: inout [UInt8]) {
        var depth = level
        var inString = false, escaped = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                if index < bytes.count, bytes[index] == byte + 2 {  // "{}" or "[]"
                    output.append(bytes[index])
                    index += 1
                } else {
                    depth += 1
                    newline(depth, &output)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(depth, &output)
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline(depth, &output)
            case UInt8(ascii: ":"):
                output.append(byte)
                output.append(0x20)
            default:
                output.append(byte)
            }
        }
    }

    static func newline(_ level: Int, _ output: inout [UInt8]) {
        output.append(0x0A)
        for _ in 0..<max(level, 0) {
            output.append(0x20)
            output.append(0x20)
        }
    }
}
