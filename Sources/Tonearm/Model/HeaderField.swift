/// One header field as it appeared on the wire: name and value, in their original case and order.
///
/// Headers are kept as an ordered list rather than a dictionary because order and repetition matter
/// (several `Set-Cookie` fields, for example) and recordings must replay exactly what was captured.
/// Named `HeaderField` rather than `HTTPField` so that code importing Tonearm beside swift-http-types
/// never has to qualify either name.
public struct HeaderField: Sendable, Hashable {
    /// The field name as written, e.g. `Content-Type`. Matching compares names case-insensitively.
    public var name: String
    /// The field value as written.
    public var value: String

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == HeaderField {
    /// The value of the first field named `name`, compared ASCII case-insensitively.
    public func first(named name: String) -> String? {
        first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// The values of every field named `name`, in order.
    public func values(named name: String) -> [String] {
        filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }
}

extension String {
    /// ASCII case-insensitive equality; header names are ASCII tokens, so no Unicode folding is wanted.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // Native and small strings (nearly all) compare their bytes in place: a pair of UTF-8 iterators
        // cost several times as much on the server's per-request header checks.
        let inPlace = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                for index in left.indices where lowercasedASCIIByte(left[index]) != lowercasedASCIIByte(right[index]) { return false }
                return true
            }
        }
        if let inPlace, let equal = inPlace { return equal }
        return zip(lhs, rhs).allSatisfy { lowercasedASCIIByte($0) == lowercasedASCIIByte($1) }
    }

    /// The string with ASCII letters lowercased and everything else untouched.
    var asciiLowercased: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map(lowercasedASCIIByte), as: UTF8.self)
    }

    /// The string with ASCII letters uppercased and everything else untouched.
    var asciiUppercased: String {
        guard utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The string without leading and trailing spaces and horizontal tabs (HTTP optional white space).
    package var trimmingHTTPWhitespace: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start == 0 && end == bytes.count { return self }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

@inline(__always)
func lowercasedASCIIByte(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
}
