/// Substring search on UTF-8 bytes: the rule prefilter's literal check, which must cost far less than
/// the regular expression it saves (the generic `Collection.firstRange(of:)` on a `String.UTF8View`
/// costs about as much as the expression).
enum ByteSearch {
    /// Whether `needle` occurs in the UTF-8 bytes of `haystack`.
    static func contains(_ needle: [UInt8], in haystack: String) -> Bool {
        if let found = haystack.utf8.withContiguousStorageIfAvailable({ contains(needle, in: $0) }) { return found }
        return contains(needle, in: Array(haystack.utf8))
    }

    private static func contains(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        let lastStart = haystack.count - needle.count
        return needle.withUnsafeBufferPointer { needle in
            var start = 0
            while start <= lastStart {
                if haystack[start] == first, memoryEqual(haystack, at: start, needle) { return true }
                start += 1
            }
            return false
        }
    }

    /// Whether the UTF-8 bytes of `text` start with `prefix`.
    static func hasPrefix(_ prefix: [UInt8], in text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ hasPrefix(prefix, in: $0) }) { return found }
        return Array(text.utf8).withUnsafeBufferPointer { hasPrefix(prefix, in: $0) }
    }

    private static func hasPrefix(_ prefix: [UInt8], in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard prefix.count <= text.count else { return false }
        return prefix.withUnsafeBufferPointer { prefix in
            for offset in prefix.indices where text[offset] != prefix[offset] { return false }
            return true
        }
    }

    private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { contains(needle, in: $0) }
    }

    @inline(__always)
    private static func memoryEqual(_ haystack: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 1..<needle.count where haystack[start + offset] != needle[offset] { return false }
        return true
    }
}
