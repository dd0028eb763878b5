import Testing
@testable import Tonearm

@Suite("Key collisions")
struct KeyCollisionTests {
    @Test("two canonical forms whose 64-bit keys collide stay apart: the check hash decides")
    func collidingKeysStayApart() {
        // Same table hash for all three, different check hashes: a collision of XXH3-64 alone.
        let grouping = TrackGrouping(checked: true)
        for (position, (hash, check)) in zip([7, 7, 7, 9] as [UInt64], [100, 200, 100, 100] as [UInt64]).enumerated() {
            grouping.add(position: position, hash: hash, check: check)
        }
        #expect(grouping.groupCount == 3)
        let first = grouping.group(for: 7, check: 100)
        let second = grouping.group(for: 7, check: 200)
        #expect(first != nil && second != nil && first != second)
        #expect(first.map { Array(grouping.members(of: $0)) } == [0, 2])
        #expect(second.map { Array(grouping.members(of: $0)) } == [1])
        #expect(grouping.group(for: 7, check: 300) == nil, "a key hit with a different check is a miss")
    }

    @Test("the key table finds every entry under heavy probing, across the generations it grows through")
    func keyTableProbing() {
        let table = KeyTable(capacityFor: 0)
        // Keys that all land in the same slot force long probe chains.
        for value in 0..<1_000 { table.insert(UInt64(value) << 32, group: value) }
        for value in 0..<1_000 {
            #expect(table.group(for: UInt64(value) << 32) { _ in true } == value)
        }
        #expect(table.group(for: 12_345) { _ in true } == nil)
    }

    @Test("the index keeps the key hash and check hash independent")
    func checkIsIndependent() {
        let key = RequestKey(canonicalBytes: Array("method 3 GET\n".utf8))
        #expect(key.value != key.check)
        #expect(key.hex.count == 16)
    }
}
