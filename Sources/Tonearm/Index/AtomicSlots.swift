import Synchronization

/// A grow-only array of atomic 32-bit integers, every slot zero until stored: per-track links and flags,
/// per-key heads and cursors, any state that must grow while other threads read it.
///
/// Chunks are allocated on first touch by whichever thread gets there first (a compare-and-exchange
/// on the directory entry; the loser frees its copy), so readers and strategies may touch slots beyond
/// anything written yet without a lock and without the writer growing the array for them. Chunks never
/// move or shrink, so a slot's address is stable for the array's lifetime.
///
/// Slots are 32 bits (values are track and rule positions plus one, and flags) to keep the index
/// small; the API speaks `Int`, and a value must fit in `Int32` (two billion tracks would need
/// hundreds of gigabytes before this limit mattered).
///
/// `@unchecked Sendable` is safe because every slot and every directory entry is an `Atomic`, touched
/// only through atomic operations; the directory pointer never changes after `init`; and chunks are
/// freed only in `deinit`, when no other reference exists.
final class AtomicSlots: @unchecked Sendable {
    private let directory: UnsafeMutablePointer<Atomic<Int>>

    init() {
        directory = .allocate(capacity: ChunkLayout.chunkCount)
        for chunk in 0..<ChunkLayout.chunkCount { (directory + chunk).initialize(to: Atomic<Int>(0)) }
    }

    deinit {
        for chunk in 0..<ChunkLayout.chunkCount {
            let address = directory[chunk].load(ordering: .relaxed)
            guard let slots = UnsafeMutablePointer<Atomic<Int32>>(bitPattern: address) else { continue }
            slots.deinitialize(count: ChunkLayout.size(of: chunk))
            slots.deallocate()
        }
        directory.deinitialize(count: ChunkLayout.chunkCount)
        directory.deallocate()
    }

    /// The slot at `index`, allocating its chunk if no thread has yet.
    @inline(__always)
    private func slot(_ index: Int) -> UnsafeMutablePointer<Atomic<Int32>> {
        let (chunk, offset) = ChunkLayout.locate(index)
        let address = directory[chunk].load(ordering: .acquiring)
        if let slots = UnsafeMutablePointer<Atomic<Int32>>(bitPattern: address) { return slots + offset }
        return allocateChunk(chunk) + offset
    }

    @inline(never)
    private func allocateChunk(_ chunk: Int) -> UnsafeMutablePointer<Atomic<Int32>> {
        let size = ChunkLayout.size(of: chunk)
        let fresh = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: size)
        for offset in 0..<size { (fresh + offset).initialize(to: Atomic<Int32>(0)) }
        let (exchanged, winner) = directory[chunk].compareExchange(
            expected: 0, desired: Int(bitPattern: fresh), ordering: .acquiringAndReleasing)
        if exchanged { return fresh }
        fresh.deinitialize(count: size)
        fresh.deallocate()
        // Non-nil: another thread installed it, and entries never go back to zero.
        return UnsafeMutablePointer(bitPattern: winner) ?? fresh
    }

    /// Slot `index`, loaded with acquiring order.
    @inline(__always)
    func load(_ index: Int) -> Int {
        Int(slot(index).pointee.load(ordering: .acquiring))
    }

    /// Slot `index`, for values that publish nothing else.
    @inline(__always)
    func relaxedLoad(_ index: Int) -> Int {
        Int(slot(index).pointee.load(ordering: .relaxed))
    }

    /// Stores into slot `index` with releasing order: what was written before is visible to a reader
    /// that loads this value.
    @inline(__always)
    func store(_ index: Int, _ value: Int) {
        slot(index).pointee.store(Int32(truncatingIfNeeded: value), ordering: .releasing)
    }

    /// Stores into slot `index`, publishing nothing else.
    @inline(__always)
    func relaxedStore(_ index: Int, _ value: Int) {
        slot(index).pointee.store(Int32(truncatingIfNeeded: value), ordering: .relaxed)
    }

    /// Adds one to slot `index`, wrapping past `Int32.max`, publishing nothing else: a counter.
    @inline(__always)
    func relaxedIncrement(_ index: Int) {
        slot(index).pointee.wrappingAdd(1, ordering: .relaxed)
    }

    /// Moves slot `index` from `expected` to `desired` if nobody else moved it first.
    @inline(__always)
    func compareExchange(_ index: Int, expected: Int, desired: Int) -> Bool {
        slot(index).pointee.compareExchange(
            expected: Int32(truncatingIfNeeded: expected), desired: Int32(truncatingIfNeeded: desired),
            ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Sets every allocated slot back to zero.
    func zeroAll() {
        for chunk in 0..<ChunkLayout.chunkCount {
            let address = directory[chunk].load(ordering: .acquiring)
            guard let slots = UnsafeMutablePointer<Atomic<Int32>>(bitPattern: address) else { continue }
            for offset in 0..<ChunkLayout.size(of: chunk) { slots[offset].store(0, ordering: .releasing) }
        }
    }

    /// Bytes held by allocated chunks.
    var storageBytes: Int {
        var bytes = ChunkLayout.chunkCount * 8
        for chunk in 0..<ChunkLayout.chunkCount where directory[chunk].load(ordering: .relaxed) != 0 {
            bytes += ChunkLayout.size(of: chunk) * 4
        }
        return bytes
    }
}
