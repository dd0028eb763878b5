/// An immutable byte buffer allocated in one piece with its header, shareable between tasks.
///
/// Why not `[UInt8]`: creating an Array looks up the generic metadata of its storage class at run time,
/// which on the project's machines costs more than the allocation itself (about 40 ns against 14 ns
/// for this). The bytes are written once, inside ``make(capacity:_:)`` before anything else can see
/// the buffer, and never change after, which is what makes the unchecked `Sendable` conformance sound
/// (`ManagedBuffer` itself is explicitly not `Sendable`, so the class is wrapped).
struct ByteStorage: @unchecked Sendable {
    final class Buffer: ManagedBuffer<Int, UInt8> {}

    let buffer: Buffer

    /// A buffer of at most `capacity` bytes, filled by `initialize`, which returns how many it wrote.
    @inline(__always)
    static func make(capacity: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> ByteStorage {
        let buffer = unsafeDowncast(Buffer.create(minimumCapacity: capacity) { _ in 0 }, to: Buffer.self)
        buffer.withUnsafeMutablePointers { header, elements in
            header.pointee = initialize(UnsafeMutableBufferPointer(start: elements, count: capacity))
        }
        return ByteStorage(buffer: buffer)
    }

    /// A copy of `bytes`.
    static func make(copying bytes: UnsafeBufferPointer<UInt8>) -> ByteStorage {
        make(capacity: bytes.count) { URLBytes.copy(bytes, into: $0, at: 0) }
    }

    /// The number of bytes written. Read through a pointer, as everywhere here: the `header` property of a
    /// class would be checked for exclusive access at run time on every read.
    @inline(__always)
    var count: Int { buffer.withUnsafeMutablePointerToHeader { $0.pointee } }

    @inline(__always)
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try buffer.withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee))
        }
    }

    /// Whether both refer to the same buffer, which then needs no byte comparison.
    @inline(__always)
    static func === (lhs: ByteStorage, rhs: ByteStorage) -> Bool { lhs.buffer === rhs.buffer }
}
