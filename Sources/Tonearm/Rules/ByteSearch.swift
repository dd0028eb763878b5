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

    private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { contains(needle, in: $0) }
    }

    @inline(__always)
    private static func memoryEqual(_ haystack: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 1..<needle.count where haystack[start + offset] != needle[offset] { return false }
        return true
    }
}
