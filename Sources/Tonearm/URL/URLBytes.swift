/// Byte-level helpers shared by the URL and form code: building Strings from byte ranges, and
/// comparing or hashing Strings by their UTF-8 bytes.
///
/// Everything in this module works on UTF-8 bytes rather than `Character`s: it is faster, and the
/// rules of RFC 3986 are defined on octets, not on grapheme clusters or canonical equivalence.
enum URLBytes {
    /// Binds a raw buffer to bytes. Raw buffers handed to us hold bytes by definition (String UTF-8,
    /// `Data`, `[UInt8]`), so viewing them as `UInt8` never reinterprets a differently typed value.
    @inline(__always)
    static func typed(_ raw: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
    }

    /// A String of `bytes[range]`. Up to 15 bytes this makes a small String, which does not allocate.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Copies `source` into `output` at `start` and returns the end; the fast path of every writer here.
    @inline(__always)
    static func copy(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let count = source.count
        if count > 0, let from = source.baseAddress, let to = output.baseAddress {
            copyBytes(from: from, to: to + start, count: count)
        }
        return start &+ count
    }

    /// Copies `count` bytes from `source` to `destination`, which must not overlap. Runs of up to 16
    /// bytes, as labels, methods and query names and values nearly always are, are copied inline with
    /// at most two loads and two stores instead of a call to memmove, which costs several times more.
    @inline(__always)
    static func copyBytes(from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        // Each branch reads and writes offsets 0..<width and count - width..<count only, with
        // width <= count, so every access stays inside the `count` bytes of both runs.
        if count >= 8 {
            guard count <= 16 else {
                destination.update(from: source, count: count)
                return
            }
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            // 1 to 3 bytes: the first, the middle (count / 2) and the last.
            destination[0] = source[0]
            destination[count &>> 1] = source[count &>> 1]
            destination[count &- 1] = source[count &- 1]
        }
    }

    /// Runs `body` with a scratch buffer of `capacity` bytes (on the stack when small) and makes a String
    /// of the prefix it reports as written, so the slow paths allocate at most the final String.
    @inline(__always)
    static func building(
        capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int
    ) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 1)) { buffer in
            let count = body(buffer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
        }
    }

    /// Runs `body` over the UTF-8 bytes of `text` without copying when the storage is contiguous.
    @inline(__always)
    static func withBytes<S: StringProtocol, R>(
        _ text: S, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = String(text)
        return copy.withUTF8(body)
    }

    /// The index of the first `target` in `bytes[start..<end]`, or `end`. Eight bytes per step: queries
    /// are the longest part of most URLs and need nothing but this search.
    @inline(__always)
    static func firstIndex(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let pattern = UInt64(target) &* ones
            while index &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ pattern
                // Sets the high bit of the lowest zero byte; higher bytes may get false positives, lower never.
                let zeros = (word &- ones) & ~word & 0x8080_8080_8080_8080
                if zeros != 0 { return index &+ zeros.trailingZeroBitCount &>> 3 }
                index &+= 8
            }
        }
        while index < end && bytes[index] != target { index &+= 1 }
        return index
    }

    /// How many times `target` occurs in `bytes`, eight bytes per step.
    @inline(__always)
    static func count(of target: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var found = 0
        var index = 0
        let end = bytes.count
        if let base = bytes.baseAddress {
            let pattern = UInt64(target) &* 0x0101_0101_0101_0101
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            while index &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ pattern
                // Exactly the zero bytes get their high bit set (no carries between bytes, unlike firstIndex).
                let zeros = ~(((word & low7) &+ low7) | word | low7)
                found &+= zeros.nonzeroBitCount
                index &+= 8
            }
        }
        while index < end {
            if bytes[index] == target { found &+= 1 }
            index &+= 1
        }
        return found
    }

    /// Whether `a` and `b` hold the same bytes, compared eight at a time.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count > 0, let first = a.baseAddress, let second = b.baseAddress else { return true }
        // Safe: every load reads offsets index..<index + 8 with index + 8 <= count, inside both buffers.
        let x = UnsafeRawPointer(first), y = UnsafeRawPointer(second)
        var index = 0
        while index &+ 8 <= count {
            if x.loadUnaligned(fromByteOffset: index, as: UInt64.self) != y.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index &+= 8
        }
        while index < count {
            if first[index] != second[index] { return false }
            index &+= 1
        }
        return true
    }

    /// Three-way comparison of UTF-8 bytes: `String`'s own `<` follows Unicode canonical ordering,
    /// which would make the canonical order depend on the standard library's Unicode tables.
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        var index = 0
        while index < common {
            let x = a[index], y = b[index]
            if x != y { return x < y ? -1 : 1 }
            index &+= 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}
