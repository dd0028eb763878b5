/// The alphabet of a compiled pattern: Unicode scalars grouped into classes that no instruction tells
/// apart, so the automaton's tables have one column per class rather than per scalar.
struct InputClasses: Sendable, Hashable {
    /// What an assertion needs to know about a scalar.
    enum Kind: UInt8, Sendable, Hashable {
        case word, newline, other
    }

    /// Class `i` holds the scalar values from `starts[i]` up to `starts[i + 1]` (exclusive).
    let starts: [UInt32]
    /// The class of each ASCII scalar, so ASCII text needs no search. A byte: classes are numbered in
    /// scalar order from 0, so an ASCII scalar's is at most its value.
    let asciiClass: [UInt8]
    let kinds: [Kind]
    /// `membership[set * wordsPerSet + class / 64]` has bit `class % 64` set when the set holds the class.
    let membership: [UInt64]
    let wordsPerSet: Int

    var count: Int { starts.count }

    init(sets: [ScalarRanges]) {
        // Boundaries of every set, plus `\n` and the word characters, so each class is entirely word,
        // newline or neither.
        var boundaries: Set<UInt32> = [0]
        for set in sets + [ScalarRanges.newline, ScalarRanges.word] {
            for range in set.ranges {
                boundaries.insert(range.lowerBound)
                if range.upperBound < 0x10FFFF { boundaries.insert(range.upperBound + 1) }
            }
        }
        let starts = boundaries.sorted()
        self.starts = starts
        kinds = starts.map { start in
            if start == 10 { return .newline }
            return ScalarRanges.word.contains(start) ? .word : .other
        }
        var asciiClass = [UInt8](repeating: 0, count: 128)
        var current = 0
        for value in 0..<128 {
            while current + 1 < starts.count, starts[current + 1] <= UInt32(value) { current += 1 }
            asciiClass[value] = UInt8(truncatingIfNeeded: current)
        }
        self.asciiClass = asciiClass
        let wordsPerSet = (starts.count + 63) / 64
        self.wordsPerSet = wordsPerSet
        var membership = [UInt64](repeating: 0, count: sets.count * wordsPerSet)
        for (setIndex, set) in sets.enumerated() {
            for (classIndex, start) in starts.enumerated() where set.contains(start) {
                membership[setIndex * wordsPerSet + classIndex / 64] |= 1 << UInt64(classIndex % 64)
            }
        }
        self.membership = membership
    }

    /// The class of the scalar with value `value`.
    @inline(__always)
    func classOf(_ value: UInt32) -> Int {
        if value < 128 { return Int(asciiClass[Int(value)]) }
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= value { low = middle } else { high = middle }
        }
        return low
    }

    @inline(__always)
    func set(_ set: Int, contains inputClass: Int) -> Bool {
        membership[set * wordsPerSet + inputClass / 64] & (1 << UInt64(inputClass % 64)) != 0
    }
}
