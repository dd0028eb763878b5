/// The bytes of one name or value of a ``FormPair``: up to 16 bytes inline, longer text in a buffer.
///
/// Why not `String`: making a String from bytes goes through validation and several calls into the
/// runtime, and on the project's machines that costs about 20 ns even for a small String, which for the
/// twelve Strings of a six-parameter query would exceed the whole budget of a request key. Nearly all
/// names and values are short, so inline words make a pair without allocation, compare with a few
/// integer operations, and copy without reference counting.
///
/// Invariant: the text is inline exactly when `count <= 16`, so equal texts always have the same form.
struct PairText: Sendable {
    /// Inline: bytes 0..<8, byte `i` at bits `8 * i`, zero beyond `count`. In a buffer: the offset.
    var low: UInt64
    /// Inline: bytes 8..<16, packed like `low`. In a buffer: zero.
    var high: UInt64
    var count: Int
    /// The buffer holding the text at `low..<low + count` when it is longer than 16 bytes, often shared
    /// by all long texts of one query.
    var storage: ByteStorage?

    static let inlineCapacity = 16

    /// Refers to `count` bytes at `offset` in `storage`; only for texts longer than 16 bytes.
    @inline(__always)
    init(storage: ByteStorage, offset: Int, count: Int) {
        low = UInt64(truncatingIfNeeded: offset)
        high = 0
        self.count = count
        self.storage = storage
    }

    /// Copies any bytes, choosing the form by length. Short texts are loaded as a few overlapping words
    /// rather than byte by byte, never reading past the text.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count <= Self.inlineCapacity else {
            self.init(storage: ByteStorage.make(copying: bytes), offset: 0, count: count)
            return
        }
        let (low, high) = Self.pack(bytes)
        self.init(low: low, high: high, count: count)
    }

    @inline(__always)
    init(low: UInt64, high: UInt64, count: Int) {
        self.low = low
        self.high = high
        self.count = count
        storage = nil
    }

    /// The inline words of up to 16 bytes.
    @inline(__always)
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64) {
        let count = bytes.count
        guard count > 0, let start = bytes.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(start)
        if count >= 8 {
            let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            guard count > 8 else { return (low, 0) }
            // The last 8 bytes, shifted so that byte 8 lands at bit 0; the overlapping bytes fall off.
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            return (low, last &>> UInt64((16 &- count) &* 8))
        }
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return (first | last &<< UInt64((count &- 4) &* 8), 0)
        }
        if count >= 2 {
            let first = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let last = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return (first | last &<< UInt64((count &- 2) &* 8), 0)
        }
        return (UInt64(start[0]), 0)
    }

    /// Makes a text of a String's UTF-8 bytes.
    init(_ text: String) {
        self = URLBytes.withBytes(text) { PairText($0) }
    }

    @inline(__always)
    var isInline: Bool { storage == nil }

    /// Runs `body` on the bytes, wherever they are.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let storage {
            return storage.withBytes { buffer in
                body(UnsafeBufferPointer(rebasing: buffer[Int(truncatingIfNeeded: low)..<(Int(truncatingIfNeeded: low) &+ count)]))
            }
        }
        let words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: words) { raw in
            body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// Writes the bytes at `pointer`, which must have room for 16 bytes even for a shorter inline text.
    @inline(__always)
    func write(to pointer: UnsafeMutableRawPointer) {
        if let storage {
            storage.withBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                pointer.copyMemory(from: base + Int(truncatingIfNeeded: low), byteCount: count)
            }
        } else {
            pointer.storeBytes(of: low.littleEndian, as: UInt64.self)
            pointer.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
    }

    var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Byte-order comparison. Inline texts compare as big-endian words: zero padding sorts below every byte,
    /// and equal words leave the shorter text first, which is exactly lexicographic order.
    @inline(__always)
    static func compare(_ lhs: PairText, _ rhs: PairText) -> Int {
        if lhs.isInline && rhs.isInline {
            if lhs.low != rhs.low { return lhs.low.byteSwapped < rhs.low.byteSwapped ? -1 : 1 }
            if lhs.high != rhs.high { return lhs.high.byteSwapped < rhs.high.byteSwapped ? -1 : 1 }
            return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
        }
        return lhs.withBytes { a in rhs.withBytes { b in URLBytes.compare(a, b) } }
    }

    @inline(__always)
    static func equal(_ lhs: PairText, _ rhs: PairText) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isInline { return lhs.low == rhs.low && lhs.high == rhs.high }
        return lhs.withBytes { a in rhs.withBytes { b in a.elementsEqual(b) } }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        if isInline {
            hasher.combine(low)
            hasher.combine(high)
        } else {
            withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
