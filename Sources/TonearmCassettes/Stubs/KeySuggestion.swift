/// The known name a misspelt one most likely meant, for "did you mean" hints.
enum KeySuggestion {
    /// The name in `known` closest to `key` by edit distance (case-insensitive), when it is close
    /// enough to be a typo: at most a third of the longer name's letters differ.
    static func nearest(to key: String, in known: [String]) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for name in known {
            let candidate = Array(name.lowercased().unicodeScalars)
            let distance = editDistance(typed, candidate)
            if distance <= max(1, max(typed.count, candidate.count) / 3), distance < (best?.distance ?? .max) {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours (`stauts` → `status`) each cost one.
    static func editDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        guard !lhs.isEmpty else { return rhs.count }
        guard !rhs.isEmpty else { return lhs.count }
        var previous2 = [Int](repeating: 0, count: rhs.count + 1)
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[rhs.count]
    }
}
