/// An open-addressing hash table from 64-bit hashes to 32-bit group numbers.
///
/// Keys are already XXH3 outputs, so their low bits index the table directly with no second hash
/// (a `Dictionary<UInt64, Int32>` would run SipHash again on every probe). Two parallel arrays keep a
/// slot at 12 bytes; linear probing keeps a hit to one or two cache lines. Equal keys may repeat:
/// lookups walk every slot with the key and let the caller confirm the group.
struct KeyTable: Sendable {
    private var keys: [UInt64]
    private var groups: [Int32]
    private let mask: Int

    private static let empty: Int32 = -1

    /// A table sized so that `count` entries keep the load factor at or under 4/5: linear probing on
    /// uniformly spread keys still averages under three probes per hit there, and a lower bound would
    /// double the table for many track counts just above a power of two.
    init(capacityFor count: Int) {
        var capacity = 8
        while capacity * 4 < max(count, 1) * 5 { capacity <<= 1 }
        keys = Array(repeating: 0, count: capacity)
        groups = Array(repeating: Self.empty, count: capacity)
        mask = capacity - 1
    }

    /// Adds an entry; the table must have been sized for every entry it will hold.
    mutating func insert(_ key: UInt64, group: Int32) {
        var slot = Int(truncatingIfNeeded: key) & mask
        while groups[slot] != Self.empty { slot = (slot + 1) & mask }
        keys[slot] = key
        groups[slot] = group
    }

    /// The first group stored under `key` that `accept` accepts.
    @inline(__always)
    func group(for key: UInt64, where accept: (Int32) -> Bool) -> Int32? {
        var slot = Int(truncatingIfNeeded: key) & mask
        while true {
            let group = groups[slot]
            if group == Self.empty { return nil }
            if keys[slot] == key, accept(group) { return group }
            slot = (slot + 1) & mask
        }
    }

    /// The first group stored under `key`.
    @inline(__always)
    func group(for key: UInt64) -> Int32? {
        group(for: key) { _ in true }
    }

    /// Bytes held by the table's storage.
    var storageBytes: Int { keys.capacity * 8 + groups.capacity * 4 }
}
