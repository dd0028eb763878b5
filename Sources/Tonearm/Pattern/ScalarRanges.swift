/// A set of Unicode scalars as sorted, disjoint, non-adjacent closed ranges of scalar values: what one
/// step of a pattern can consume (a literal, `.`, a class, `\d`).
struct ScalarRanges: Hashable, Sendable {
    /// Sorted by lower bound; no two overlap or touch.
    private(set) var ranges: [ClosedRange<UInt32>] = []

    static let empty = ScalarRanges()
    static let all = ScalarRanges(0...0x10FFFF)
    static let newline = ScalarRanges(10...10)
    /// `\d`: ASCII digits, as in Java and RE2.
    static let digits = ScalarRanges(48...57)
    /// `\w`: ASCII letters, digits and `_`, as in Java and RE2; `\b` uses the same set.
    static let word = ScalarRanges([48...57, 65...90, 95...95, 97...122])
    /// `\s`: space, tab, newline, vertical tab, form feed and carriage return, as in Java.
    static let whitespace = ScalarRanges([9...13, 32...32])
    /// `\v` (Java's vertical whitespace).
    static let verticalWhitespace = ScalarRanges([10...13, 0x85...0x85, 0x2028...0x2029])
    /// `\h` (Java's horizontal whitespace).
    static let horizontalWhitespace = ScalarRanges([
        9...9, 32...32, 0xA0...0xA0, 0x1680...0x1680, 0x180E...0x180E, 0x2000...0x200A, 0x202F...0x202F,
        0x205F...0x205F, 0x3000...0x3000,
    ])

    init() {}

    init(_ range: ClosedRange<UInt32>) { insert(range) }

    init(_ ranges: [ClosedRange<UInt32>]) {
        for range in ranges { insert(range) }
    }

    init(_ scalar: Unicode.Scalar) { insert(scalar.value...scalar.value) }

    var isEmpty: Bool { ranges.isEmpty }

    /// The one scalar in the set, if it holds exactly one.
    var single: Unicode.Scalar? {
        guard ranges.count == 1, let only = ranges.first, only.lowerBound == only.upperBound else { return nil }
        return Unicode.Scalar(only.lowerBound)
    }

    func contains(_ value: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(value)
    }

    mutating func insert(_ range: ClosedRange<UInt32>) {
        var merged = range
        var kept: [ClosedRange<UInt32>] = []
        kept.reserveCapacity(ranges.count + 1)
        var placed = false
        for existing in ranges {
            // Ranges that overlap or touch the new one are folded into it (the `+ 1`s cannot overflow:
            // scalar values end at 0x10FFFF).
            if existing.upperBound + 1 < merged.lowerBound {
                kept.append(existing)
            } else if merged.upperBound + 1 < existing.lowerBound {
                if !placed { kept.append(merged); placed = true }
                kept.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)...max(existing.upperBound, merged.upperBound)
            }
        }
        if !placed { kept.append(merged) }
        ranges = kept
    }

    mutating func formUnion(_ other: ScalarRanges) {
        for range in other.ranges { insert(range) }
    }

    /// Every scalar value not in the set.
    var inverted: ScalarRanges {
        var result = ScalarRanges()
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.ranges.append(next...(range.lowerBound - 1)) }
            next = range.upperBound + 1
        }
        if next <= 0x10FFFF { result.ranges.append(next...0x10FFFF) }
        return result
    }

    /// The set with every scalar's simple case variants added (its single-scalar lowercase, uppercase
    /// and titlecase mappings), for `(?i)`. Ranges wider than a few thousand scalars are taken as they are:
    /// wide classes such as `[^/]` already hold both cases of nearly every letter.
    var caseFolded: ScalarRanges {
        var result = self
        for range in ranges where range.count <= 4_096 {
            for value in range {
                guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseMapped else { continue }
                for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping, scalar.properties.titlecaseMapping] {
                    let mapped = mapping.unicodeScalars
                    if mapped.count == 1, let variant = mapped.first { result.insert(variant.value...variant.value) }
                }
            }
        }
        return result
    }
}
