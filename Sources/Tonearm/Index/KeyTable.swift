import Synchronization

/// An open-addressing hash table from 64-bit hashes to group numbers that one writer grows while any
/// number of readers probe it without locks.
///
/// Keys are already XXH3 outputs, so their low bits index the table directly with no second hash.
/// A slot is two atomics: the writer stores the key, then the group (plus one, zero meaning empty)
/// with releasing order; a reader loads the group with acquiring order and only then the key. When
/// the load factor would pass 4/5 the writer builds a table twice the size and publishes it with one
/// atomic store; the old tables are retired, not freed, until the table itself deinits (geometric
/// sizes keep them under the live table's size), so a reader still probing an old table is never
/// reading freed memory. Equal keys may repeat: lookups walk every slot with the key and let the
/// caller confirm the group.
///
/// `@unchecked Sendable` is safe because readers only load `current` atomically and read slots
/// atomically; `insert`, the only mutation besides atomic stores, is called by the owner's single
/// writer (under its `Mutex`), which is also the only code touching `retired` and `count`.
final class KeyTable: @unchecked Sendable {
    /// One generation of slots.
    final class Slots {
        let keys: UnsafeMutablePointer<Atomic<UInt64>>
        let groups: UnsafeMutablePointer<Atomic<Int32>>
        let mask: Int

        init(capacity: Int) {
            keys = .allocate(capacity: capacity)
            groups = .allocate(capacity: capacity)
            for slot in 0..<capacity {
                (keys + slot).initialize(to: Atomic(0))
                (groups + slot).initialize(to: Atomic<Int32>(0))
            }
            mask = capacity - 1
        }

        deinit {
            keys.deinitialize(count: mask + 1)
            keys.deallocate()
            groups.deinitialize(count: mask + 1)
            groups.deallocate()
        }

        func insert(_ key: UInt64, group: Int) {
            var slot = Int(truncatingIfNeeded: key) & mask
            while groups[slot].load(ordering: .relaxed) != 0 { slot = (slot + 1) & mask }
            keys[slot].store(key, ordering: .relaxed)
            groups[slot].store(Int32(truncatingIfNeeded: group + 1), ordering: .releasing)
        }
    }

    private let current: Atomic<Unmanaged<Slots>>
    /// Earlier generations, kept alive for readers that may still be probing them.
    private var retired: [Slots] = []
    private var count = 0

    /// A table sized for `count` entries before it first grows.
    init(capacityFor count: Int) {
        current = Atomic(Unmanaged.passRetained(Slots(capacity: Self.capacity(for: count))))
    }

    deinit {
        current.load(ordering: .acquiring).release()
    }

    /// The smallest power of two holding `count` entries at a load factor of at most 4/5: linear
    /// probing on uniformly spread keys still averages under three probes per hit there.
    private static func capacity(for count: Int) -> Int {
        var capacity = 8
        while capacity * 4 < max(count, 1) * 5 { capacity <<= 1 }
        return capacity
    }

    /// Adds an entry, growing the table first when it is full. Single writer only.
    func insert(_ key: UInt64, group: Int) {
        let slots = current.load(ordering: .relaxed).takeUnretainedValue()
        count += 1
        guard (slots.mask + 1) * 4 < count * 5 else {
            slots.insert(key, group: group)
            return
        }
        let grown = Slots(capacity: (slots.mask + 1) * 2)
        for slot in 0...slots.mask {
            let stored = slots.groups[slot].load(ordering: .relaxed)
            if stored != 0 { grown.insert(slots.keys[slot].load(ordering: .relaxed), group: Int(stored) - 1) }
        }
        grown.insert(key, group: group)
        retired.append(slots)
        // The +1 retain taken here moves to `current`; the one `current` held on `slots` is given up,
        // `retired` now keeping it alive.
        current.store(Unmanaged.passRetained(grown), ordering: .releasing)
        Unmanaged.passUnretained(slots).release()
    }

    /// Frees the retired generations. Single writer only, and only while no reader can hold one (the
    /// table is being built and nobody else has it yet).
    func freeRetiredTables() {
        if !retired.isEmpty { retired.removeAll() }
    }

    /// The first group stored under `key` that `accept` accepts.
    @inline(__always)
    func group(for key: UInt64, where accept: (Int) -> Bool) -> Int? {
        current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { slots in
            var slot = Int(truncatingIfNeeded: key) & slots.mask
            while true {
                let stored = Int(slots.groups[slot].load(ordering: .acquiring))
                if stored == 0 { return nil }
                if slots.keys[slot].load(ordering: .relaxed) == key, accept(stored - 1) { return stored - 1 }
                slot = (slot + 1) & slots.mask
            }
        }
    }

    /// Bytes held by the live table and the retired ones. Writer only (reads `retired`).
    var storageBytes: Int {
        let live = current.load(ordering: .acquiring)._withUnsafeGuaranteedRef { $0.mask + 1 }
        return (live + retired.reduce(0) { $0 + $1.mask + 1 }) * 12
    }
}
