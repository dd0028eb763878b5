/// Tracks grouped by a 64-bit hash: a ``KeyTable`` to find a group, and the members of every group in
/// one flat array (compressed sparse rows), in recording order.
///
/// One array for all members instead of an array per group saves an allocation and ~32 bytes per
/// group, which is what keeps the index overhead per track small.
struct TrackGrouping: Sendable {
    private(set) var table: KeyTable
    /// `memberStart[g]..<memberStart[g + 1]` are group `g`'s slice of `members`.
    private(set) var memberStart: [Int32]
    /// Track positions, grouped.
    private(set) var members: [Int32]
    /// The group of each track, by track position (empty unless asked for: only strict order needs it).
    private(set) var groupOfTrack: [Int32]

    /// Groups tracks by `hashes[i]`; when `checks` is given, equal hashes with different checks make
    /// different groups (a collision of the first hash alone never merges two requests).
    init(hashes: [UInt64], checks: [UInt64]? = nil, keepingGroupOfTrack: Bool = false) {
        var table = KeyTable(capacityFor: hashes.count)
        var groupOfTrack = [Int32](repeating: 0, count: hashes.count)
        var groupCheck: [UInt64] = []
        var groupHash: [UInt64] = []
        var groupSizes: [Int32] = []
        for (position, hash) in hashes.enumerated() {
            let check = checks?[position] ?? 0
            let group =
                table.group(for: hash) { groupCheck[Int($0)] == check }
                ?? {
                    let newGroup = Int32(groupSizes.count)
                    table.insert(hash, group: newGroup)
                    groupHash.append(hash)
                    groupCheck.append(check)
                    groupSizes.append(0)
                    return newGroup
                }()
            groupOfTrack[position] = group
            groupSizes[Int(group)] += 1
        }
        var memberStart = [Int32](repeating: 0, count: groupSizes.count + 1)
        for group in groupSizes.indices { memberStart[group + 1] = memberStart[group] + groupSizes[group] }
        var fill = Array(memberStart.dropLast())
        var members = [Int32](repeating: 0, count: hashes.count)
        for (position, group) in groupOfTrack.enumerated() {
            members[Int(fill[Int(group)])] = Int32(position)
            fill[Int(group)] += 1
        }
        // Sized for every track while grouping; coarse groupings (routes, origins) have far fewer
        // groups than tracks, so the final table is rebuilt for the groups alone.
        self.table = groupSizes.count * 2 < hashes.count ? Self.compactTable(groupHash) : table
        self.memberStart = memberStart
        self.members = members
        self.groupOfTrack = keepingGroupOfTrack ? groupOfTrack : []
        self.groupCheck = checks == nil ? [] : groupCheck
    }

    /// The check hash of each group (empty when grouping without checks).
    private(set) var groupCheck: [UInt64]

    private static func compactTable(_ groupHash: [UInt64]) -> KeyTable {
        var table = KeyTable(capacityFor: groupHash.count)
        for (group, hash) in groupHash.enumerated() { table.insert(hash, group: Int32(group)) }
        return table
    }

    /// The group holding `hash` (and `check`, when grouped with checks).
    @inline(__always)
    func group(for hash: UInt64, check: UInt64) -> Int32? {
        if groupCheck.isEmpty { return table.group(for: hash) }
        return table.group(for: hash) { groupCheck[Int($0)] == check }
    }

    /// The number of tracks in `group`.
    @inline(__always)
    func count(of group: Int32) -> Int {
        Int(memberStart[Int(group) + 1] - memberStart[Int(group)])
    }

    /// The position of the `n`th track (0-based, recording order) in `group`.
    @inline(__always)
    func member(_ n: Int, of group: Int32) -> Int {
        Int(members[Int(memberStart[Int(group)]) + n])
    }

    /// The positions of the tracks in `group`, in recording order.
    func members(of group: Int32) -> ArraySlice<Int32> {
        members[Int(memberStart[Int(group)])..<Int(memberStart[Int(group) + 1])]
    }

    /// The number of groups.
    var groupCount: Int { memberStart.count - 1 }

    /// Bytes held by the grouping's storage.
    var storageBytes: Int {
        table.storageBytes + memberStart.capacity * 4 + members.capacity * 4 + groupOfTrack.capacity * 4
            + groupCheck.capacity * 8
    }
}
