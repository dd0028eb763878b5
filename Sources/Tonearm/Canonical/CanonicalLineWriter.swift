/// Writes `label SP length SP value LF` lines (docs/key-spec.md §1) into memory that was sized for them
/// beforehand, through a pointer.
///
/// Why not `Array.append`: every append checks the array's uniqueness and capacity, and a GET key has
/// about twenty of them; writing through a pointer into an array created at its final capacity saved
/// about a tenth of a GET key's instructions. Callers must reserve ``lineOverhead`` bytes per line beyond
/// the label suffixes and values.
struct CanonicalLineWriter {
    /// The start of the memory, which has room for every line the caller writes.
    let base: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// The most bytes a line takes beyond its label suffix and value: the longest label, two spaces, a
    /// length of up to 20 digits and the line feed.
    static let lineOverhead = 9 + 2 + 20 + 1

    /// Writes a line whose value, `valueLength` bytes long, `writeValue` writes at the pointer it gets.
    @inline(__always)
    mutating func line(
        _ label: CanonicalLabel, suffix: UnsafeRawBufferPointer? = nil, valueLength: Int,
        _ writeValue: (UnsafeMutablePointer<UInt8>) -> Void
    ) {
        label.bytes.withUTF8Buffer { append($0.baseAddress, $0.count) }
        if let suffix { append(suffix.baseAddress?.assumingMemoryBound(to: UInt8.self), suffix.count) }
        base[count] = 0x20
        count &+= 1
        count = Self.writeDecimal(valueLength, at: base, count)
        base[count] = 0x20
        writeValue(base + (count &+ 1))
        count &+= 1 &+ valueLength
        base[count] = 0x0A
        count &+= 1
    }

    /// Writes a line whose value is `value`.
    @inline(__always)
    mutating func line(_ label: CanonicalLabel, suffix: UnsafeRawBufferPointer? = nil, _ value: UnsafeRawBufferPointer) {
        line(label, suffix: suffix, valueLength: value.count) { destination in
            if let source = value.baseAddress { destination.update(from: source.assumingMemoryBound(to: UInt8.self), count: value.count) }
        }
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>?, _ length: Int) {
        if let source, length > 0 { (base + count).update(from: source, count: length) }
        count &+= length
    }

    /// Writes the decimal digits of a non-negative `value` at `start` and returns their end.
    @inline(__always)
    static func writeDecimal(_ value: Int, at base: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        var index = start &+ digits
        rest = value
        repeat {
            index &-= 1
            base[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
        } while rest > 0
        return start &+ digits
    }
}
