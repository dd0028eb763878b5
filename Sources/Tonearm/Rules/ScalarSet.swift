/// A set of characters as far as backtracking analysis needs it: exact for ASCII, one flag for everything
/// else. Treating all non-ASCII characters as one makes overlap and containment tests answer "yes" more
/// often, which only makes ``BacktrackingCheck`` more cautious.
struct ScalarSet: Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// Whether it may hold some character outside ASCII.
    private var beyondASCII = false

    static let empty = ScalarSet()
    static let all = ScalarSet(low: .max, high: .max, beyondASCII: true)
    /// `.`: everything but a newline.
    static let dot: ScalarSet = {
        var set = all
        set.remove("\n")
        return set
    }()
    static let digits = ScalarSet(range: "0", "9", beyondASCII: true)
    static let word: ScalarSet = {
        var set = ScalarSet(range: "a", "z", beyondASCII: true)
        set.insertRange("A", "Z", ignoringCase: false)
        set.formUnion(.digits)
        set.insert("_")
        return set
    }()
    static let whitespace: ScalarSet = {
        var set = ScalarSet(range: "\t", "\r", beyondASCII: true)
        set.insert(" ")
        return set
    }()

    private init(low: UInt64 = 0, high: UInt64 = 0, beyondASCII: Bool = false) {
        self.low = low
        self.high = high
        self.beyondASCII = beyondASCII
    }

    private init(range lower: Unicode.Scalar, _ upper: Unicode.Scalar, beyondASCII: Bool) {
        self.init(beyondASCII: beyondASCII)
        insertRange(lower, upper, ignoringCase: false)
    }

    /// The set holding only `scalar`.
    init(_ scalar: Unicode.Scalar) {
        insert(scalar)
    }

    mutating func insert(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 64 { low |= 1 << UInt64(value) } else if value < 128 { high |= 1 << UInt64(value - 64) } else { beyondASCII = true }
    }

    mutating func remove(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 64 { low &= ~(1 << UInt64(value)) } else if value < 128 { high &= ~(1 << UInt64(value - 64)) }
    }

    /// Adds `lower...upper` (both cases of ASCII letters in it when `ignoringCase`).
    mutating func insertRange(_ lower: Unicode.Scalar, _ upper: Unicode.Scalar, ignoringCase: Bool) {
        guard lower.value <= upper.value else { return }
        if upper.value >= 128 { beyondASCII = true }
        guard lower.value < 128 else { return }
        for value in lower.value...min(upper.value, 127) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            insert(scalar)
            if ignoringCase, scalar.properties.isAlphabetic {
                scalar.properties.lowercaseMapping.unicodeScalars.forEach { insert($0) }
                scalar.properties.uppercaseMapping.unicodeScalars.forEach { insert($0) }
            }
        }
    }

    mutating func formUnion(_ other: ScalarSet) {
        low |= other.low
        high |= other.high
        beyondASCII = beyondASCII || other.beyondASCII
    }

    func union(_ other: ScalarSet) -> ScalarSet {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(low: low & other.low, high: high & other.high, beyondASCII: beyondASCII && other.beyondASCII)
    }

    /// The complement (a negated class `[^…]` always admits non-ASCII characters).
    var inverted: ScalarSet { ScalarSet(low: ~low, high: ~high, beyondASCII: true) }

    var isEmpty: Bool { low == 0 && high == 0 && !beyondASCII }

    func overlaps(_ other: ScalarSet) -> Bool { !intersection(other).isEmpty }

    func isSubset(of other: ScalarSet) -> Bool {
        low & ~other.low == 0 && high & ~other.high == 0 && (!beyondASCII || other.beyondASCII)
    }
}
