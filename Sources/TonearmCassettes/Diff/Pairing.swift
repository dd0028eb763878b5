/// The tracks (or rules) of two files paired by key: the i-th occurrence of a key in the old file with
/// the i-th in the new one, so that a FIFO sequence pairs step by step and a request recorded once more
/// shows as one added track.
struct Pairing<Key: Hashable> {
    /// Paired positions, in the new file's order.
    private(set) var pairs: [(old: Int, new: Int)] = []
    /// Positions of the old file with no partner, in file order.
    private(set) var onlyOld: [Int] = []
    /// Positions of the new file with no partner, in file order.
    private(set) var onlyNew: [Int] = []
    /// The key of each position.
    let oldKeys: [Key], newKeys: [Key]
    /// Which occurrence of its key each position is, from 0.
    let oldOccurrences: [Int], newOccurrences: [Int]
    /// The positions of each key, in file order.
    let oldPositions: [Key: [Int]], newPositions: [Key: [Int]]
    /// The old partner of each new position.
    private(set) var oldPartners: [Int?]

    init(old oldKeys: [Key], new newKeys: [Key]) {
        self.oldKeys = oldKeys
        self.newKeys = newKeys
        (oldPositions, oldOccurrences) = Self.positions(oldKeys)
        (newPositions, newOccurrences) = Self.positions(newKeys)
        oldPartners = Array(repeating: nil, count: newKeys.count)
        for (position, key) in newKeys.enumerated() {
            let occurrence = newOccurrences[position]
            if let partners = oldPositions[key], occurrence < partners.count {
                pairs.append((partners[occurrence], position))
                oldPartners[position] = partners[occurrence]
            } else {
                onlyNew.append(position)
            }
        }
        for (position, key) in oldKeys.enumerated() where oldOccurrences[position] >= newPositions[key]?.count ?? 0 {
            onlyOld.append(position)
        }
    }

    private static func positions(_ keys: [Key]) -> (byKey: [Key: [Int]], occurrences: [Int]) {
        var byKey: [Key: [Int]] = [:]
        var occurrences: [Int] = []
        occurrences.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() {
            occurrences.append(byKey[key]?.count ?? 0)
            byKey[key, default: []].append(position)
        }
        return (byKey, occurrences)
    }
}
