/// A growable byte buffer that the canonicaliser owns outright.
///
/// `[UInt8]` checks uniqueness and capacity on every append and cannot hand out a stable pointer
/// while it is being written; canonicalisation appends a few bytes per token and sorts members by
/// reading bytes it has already written, so a plain allocation is both faster and simpler. It is
/// non-copyable so the allocation has exactly one owner and is freed exactly once.
///
/// The `Unchecked` appends skip the capacity test. They are only used where the writer has already
/// guaranteed room (see `CanonicalWriter.slack`).
struct ByteBuffer: ~Copyable {
    var base: UnsafeMutablePointer<UInt8>
    var count: Int
    private(set) var capacity: Int

    init(capacity: Int) {
        let capacity = max(capacity, 16)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    deinit {
        base.deallocate()
    }

    /// Makes room for `extra` more bytes, doubling so appends stay amortised O(1).
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity {
            grow(toAtLeast: count + extra)
        }
    }

    @inline(never)
    private mutating func grow(toAtLeast needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed {
            newCapacity = newCapacity * 2
        }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        appendUnchecked(byte)
    }

    @inline(__always)
    mutating func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        base[count] = first
        base[count &+ 1] = second
        count &+= 2
    }

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (base + count).update(from: source, count: length)
        count &+= length
    }

    mutating func append(_ bytes: StaticString) {
        bytes.withUTF8Buffer { buffer in
            if let address = buffer.baseAddress {
                append(address, count: buffer.count)
            }
        }
    }

    /// Lets `body` write at most `maximum` bytes in place and returns after counting what it wrote;
    /// used for numbers, whose length is only known once formatted.
    @inline(__always)
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        let written = body(base + count)
        count &+= written
    }

    /// Drops everything from `newCount` on; capacity is kept for reuse.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        count = newCount
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }
}

/// A stack of plain values in one manually managed allocation.
///
/// Used for the member spans and open containers of a canonicalisation run: `Array` would check
/// for uniqueness on every push and copy slices when sorting them in place.
struct RawStack<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(initialCapacity: Int) {
        capacity = max(initialCapacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Removes the last `k` elements (0 ≤ k ≤ count).
    @inline(__always)
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count)
        count -= k
    }

    /// Removes and returns the last element, if any.
    @inline(__always)
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base[count]
    }

    /// Element `index` (0 ≤ index < count).
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count)
            base[index] = newValue
        }
    }
}
