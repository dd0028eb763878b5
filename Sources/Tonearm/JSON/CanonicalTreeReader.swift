/// Builds a `JSONValue` from text the canonicaliser has produced.
///
/// Parsing twice sounds wasteful, but it means the strict validation, number normalisation and
/// member ordering exist once, in `CanonicalWriter`; this reader only has to understand canonical
/// output (no whitespace, a handful of escapes, numbers already in final form). It still checks
/// bounds, reading past the end as a zero byte, so a bug upstream cannot turn into a crash here.
struct CanonicalTreeReader {
    private let bytes: [UInt8]
    private var pos = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func peek() -> UInt8 {
        pos < bytes.count ? bytes[pos] : 0
    }

    /// Reads one value; nesting is bounded by the canonicaliser's depth limit.
    mutating func readValue() -> JSONValue {
        switch peek() {
        case UInt8(ascii: "{"):
            pos += 1
            var members: [JSONMember] = []
            if peek() == UInt8(ascii: "}") {
                pos += 1
                return .object(members)
            }
            while pos < bytes.count {
                let key = readString()
                pos += 1  // ':'
                members.append(JSONMember(key: key, value: readValue()))
                let separator = peek()
                pos += 1
                if separator != UInt8(ascii: ",") { break }
            }
            return .object(members)
        case UInt8(ascii: "["):
            pos += 1
            var elements: [JSONValue] = []
            if peek() == UInt8(ascii: "]") {
                pos += 1
                return .array(elements)
            }
            while pos < bytes.count {
                elements.append(readValue())
                let separator = peek()
                pos += 1
                if separator != UInt8(ascii: ",") { break }
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(readString())
        case UInt8(ascii: "t"):
            pos += 4
            return .bool(true)
        case UInt8(ascii: "f"):
            pos += 5
            return .bool(false)
        case UInt8(ascii: "n"):
            pos += 4
            return .null
        default:
            let start = pos
            while pos < bytes.count {
                let byte = bytes[pos]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { break }
                pos += 1
            }
            return .number(String(decoding: bytes[start..<pos], as: UTF8.self))
        }
    }

    /// Reads a canonical string at `pos` (its opening quote), decoding the few escapes canonical
    /// output uses.
    private mutating func readString() -> String {
        pos += 1
        let start = pos
        var hasEscape = false
        while pos < bytes.count && bytes[pos] != UInt8(ascii: "\"") {
            if bytes[pos] == UInt8(ascii: "\\") {
                hasEscape = true
                pos += 1
            }
            pos += 1
        }
        let end = min(pos, bytes.count)
        pos += 1
        guard hasEscape else {
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(end - start)
        var index = start
        while index < end {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < end else {
                decoded.append(byte)
                continue
            }
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "u"):
                // Canonical output only escapes U+0000…U+001F this way: \u00xx.
                var value: UInt8 = 0
                for _ in 0..<4 where index < end {
                    let digit = bytes[index]
                    value = value &<< 4 | (digit <= UInt8(ascii: "9") ? digit &- 48 : (digit | 0x20) &- 87)
                    index += 1
                }
                decoded.append(value)
            default: decoded.append(letter)  // \" and \\
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
