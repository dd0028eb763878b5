import Synchronization

/// Tracks grouped by a 64-bit hash, growing while it is read: a ``KeyTable`` to find a group, and per
/// group a singly linked list of its members in the order they were added.
///
/// Links are per track (`next[position]`), heads and tails per group, all ``AtomicSlots`` holding a
/// position plus one (zero is "none"). Appending a member stores its position into the old tail's link
/// (or the group's head) with releasing order, so a reader walking the list sees either the list
/// before or after the append, never a half-written member: an appended track joins its key's queue
/// behind the members already there, while strategies are walking it.
///
/// Only the owner's single writer calls ``add(position:hash:check:)``.
final class TrackGrouping: Sendable {
    private let table: KeyTable
    /// The check hash of each group (unused when grouping without checks), written before the group is
    /// published in the table.
    private let checks = GrowOnlyArray<UInt64>()
    private let heads = AtomicSlots()
    private let tails = AtomicSlots()
    private let next = AtomicSlots()
    private let groups = Atomic<Int>(0)
    private let checked: Bool

    /// An empty grouping; when `checked`, equal hashes with different checks make different groups
    /// (a collision of the first hash alone never merges two requests).
    init(checked: Bool) {
        self.checked = checked
        table = KeyTable(capacityFor: 0)
    }

    /// Adds the track at `position` to the group of `hash` (and `check`), creating the group if it is
    /// new; returns the group. Single writer only; positions must be added in increasing order.
    @discardableResult
    func add(position: Int, hash: UInt64, check: UInt64 = 0) -> Int {
        let link = position + 1
        if let group = group(for: hash, check: check) {
            let tail = tails.relaxedLoad(group)
            next.store(tail - 1, link)
            tails.relaxedStore(group, link)
            return group
        }
        let group = groups.load(ordering: .relaxed)
        if checked { checks.append(check) }
        heads.store(group, link)
        tails.relaxedStore(group, link)
        groups.store(group + 1, ordering: .releasing)
        // Published last: a reader that finds the group in the table sees its check and head.
        table.insert(hash, group: group)
        return group
    }

    /// The group holding `hash` (and `check`, when grouped with checks).
    @inline(__always)
    func group(for hash: UInt64, check: UInt64) -> Int? {
        guard checked else { return table.group(for: hash) { _ in true } }
        return table.group(for: hash) { checks[$0] == check }
    }

    /// The first position in `group`, in the order added (removed tracks included).
    @inline(__always)
    func first(of group: Int) -> Int? {
        let link = heads.load(group)
        return link == 0 ? nil : link - 1
    }

    /// The position after `position` in its group, if one has been added.
    @inline(__always)
    func next(after position: Int) -> Int? {
        let link = next.load(position)
        return link == 0 ? nil : link - 1
    }

    /// The positions in `group`, in the order added (removed tracks included).
    func members(of group: Int) -> some Sequence<Int> {
        sequence(first: first(of: group) ?? -1) { self.next(after: $0) }.lazy.filter { $0 >= 0 }
    }

    /// The number of groups.
    var groupCount: Int { groups.load(ordering: .acquiring) }

    /// Frees the tables the grouping's key table outgrew. Only while nobody else holds the grouping:
    /// otherwise a reader may still be probing one.
    func freeOutgrownTables() {
        table.freeRetiredTables()
    }

    /// Bytes held by the grouping's storage. Writer only (reads the table's retired generations).
    var storageBytes: Int {
        table.storageBytes + checks.storageBytes + heads.storageBytes + tails.storageBytes + next.storageBytes
    }
}
