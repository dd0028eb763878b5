import Synchronization

/// A fixed number of atomic counters in one allocation: the lock-free state of the queue and
/// strict-order strategies.
///
/// `@unchecked Sendable` is safe because the pointer never changes after `init`, every element is an
/// `Atomic` touched only through atomic operations, and the storage is freed only in `deinit`, when no
/// other reference can exist.
final class AtomicCounters: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Atomic<Int>>
    let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        for offset in 0..<count { (storage + offset).initialize(to: Atomic(0)) }
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Adds one to counter `index` and returns its value before the increment.
    @inline(__always)
    func takeNext(_ index: Int) -> Int {
        storage[index].wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// The current value of counter `index`.
    @inline(__always)
    func value(_ index: Int) -> Int {
        storage[index].load(ordering: .acquiring)
    }

    /// Moves counter `index` from `expected` to `desired` if nobody else moved it first.
    @inline(__always)
    func advance(_ index: Int, from expected: Int, to desired: Int) -> Bool {
        storage[index].compareExchange(
            expected: expected, desired: desired, ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Sets every counter back to zero.
    func resetAll() {
        for offset in 0..<count { storage[offset].store(0, ordering: .releasing) }
    }
}
