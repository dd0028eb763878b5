/// How ``TextCondition/equalsJSON(_:_:)`` compares a JSON document with the expected one, the way
/// WireMock's `equalToJson` does (checked against WireMock 2.35.1 by scripts/wiremock-diff.py).
///
/// - Objects are equal when they have the same member names with equal values, in any order; with
///   ``ignoresExtraElements`` the actual object may have more members.
/// - Arrays are compared element by element; with ``ignoresArrayOrder`` in any order (each expected
///   element paired with a distinct actual one); with ``ignoresExtraElements`` the actual array may
///   have more elements: after the expected ones, or anywhere when the order is ignored too.
/// - Numbers are compared as decimals the way Jackson reads them: a number written without fraction or
///   exponent is an integer (`10`), any other is its decimal value without trailing zeros (`10.0` and
///   `1e1` are both 1E+1), and the two compare equal only when value and scale agree. So `1` equals
///   `1.0` and `1e0`, and `0.1` equals `0.10`, but `10` does not equal `10.0`.
/// - The strings `${json-unit.any-string}`, `${json-unit.any-number}`, `${json-unit.any-boolean}` and
///   `${json-unit.ignore}` in the expected document accept any string, number, boolean or value.
public struct JSONComparison: Sendable, Hashable {
    /// Arrays match whatever the order of their elements.
    public var ignoresArrayOrder: Bool
    /// The actual document may have members and elements the expected one does not name.
    public var ignoresExtraElements: Bool

    /// Creates comparison options; both default to strict.
    public init(ignoresArrayOrder: Bool = false, ignoresExtraElements: Bool = false) {
        self.ignoresArrayOrder = ignoresArrayOrder
        self.ignoresExtraElements = ignoresExtraElements
    }

    /// Whether `actual` equals `expected` under these options.
    public func matches(_ actual: JSONValue, expected: JSONValue) -> Bool {
        switch (expected, actual) {
        case (.string(let placeholder), _) where placeholder.hasPrefix("${json-unit."):
            switch placeholder {
            case "${json-unit.any-string}": if case .string = actual { return true } else { return false }
            case "${json-unit.any-number}": if case .number = actual { return true } else { return false }
            case "${json-unit.any-boolean}": if case .bool = actual { return true } else { return false }
            case "${json-unit.ignore}", "${json-unit.ignore-element}": return true
            default: if case .string(let text) = actual { return text.unicodeScalars.elementsEqual(placeholder.unicodeScalars) } else { return false }
            }
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.string(let left), .string(let right)): return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        case (.number(let left), .number(let right)):
            return JSONDecimal(left).map { $0 == JSONDecimal(right) } ?? left.utf8.elementsEqual(right.utf8)
        case (.object(let expectedMembers), .object(let actualMembers)):
            return objectsMatch(actualMembers, expected: expectedMembers)
        case (.array(let expectedElements), .array(let actualElements)):
            return arraysMatch(actualElements, expected: expectedElements)
        default:
            return false
        }
    }

    private func objectsMatch(_ actual: [JSONMember], expected: [JSONMember]) -> Bool {
        // Duplicate names: the last one counts, as Jackson keeps it.
        let actualByName = Self.lastByName(actual)
        let expectedByName = Self.lastByName(expected)
        if !ignoresExtraElements, actualByName.count != expectedByName.count { return false }
        for (name, value) in expectedByName {
            guard let found = actualByName[name], matches(found, expected: value) else { return false }
        }
        return true
    }

    /// Members by their name's exact scalars (a `String` key would merge canonically equivalent names).
    private static func lastByName(_ members: [JSONMember]) -> [[Unicode.Scalar]: JSONValue] {
        var byName: [[Unicode.Scalar]: JSONValue] = [:]
        for member in members { byName[Array(member.key.unicodeScalars)] = member.value }
        return byName
    }

    private func arraysMatch(_ actual: [JSONValue], expected: [JSONValue]) -> Bool {
        if ignoresExtraElements ? actual.count < expected.count : actual.count != expected.count { return false }
        guard ignoresArrayOrder else {
            return zip(expected, actual).allSatisfy { matches($0.1, expected: $0.0) }
        }
        // Each expected element needs its own actual element: a bipartite matching, found with
        // augmenting paths (Kuhn's algorithm), so `[1, 1, 2]` does not match `[1, 2, 2]`.
        var owner = [Int?](repeating: nil, count: actual.count)
        var compatible: [[Int]] = []
        for element in expected {
            compatible.append(actual.indices.filter { matches(actual[$0], expected: element) })
        }
        for start in expected.indices {
            var visited = [Bool](repeating: false, count: actual.count)
            guard Self.augment(from: start, compatible: compatible, owner: &owner, visited: &visited) else { return false }
        }
        return true
    }

    private static func augment(from expected: Int, compatible: [[Int]], owner: inout [Int?], visited: inout [Bool]) -> Bool {
        for candidate in compatible[expected] where !visited[candidate] {
            visited[candidate] = true
            if let current = owner[candidate] {
                guard augment(from: current, compatible: compatible, owner: &owner, visited: &visited) else { continue }
            }
            owner[candidate] = expected
            return true
        }
        return false
    }
}

/// A JSON number as Jackson's `BigDecimal` sees it: significant digits and a power of ten, with the
/// trailing zeros of a fractional or exponent form dropped (an integer keeps them). Equality compares
/// digits and exponent, so `10` (digits 10, exponent 0) differs from `10.0` (digits 1, exponent 1).
struct JSONDecimal: Equatable {
    let isNegative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// `nil` when `text` is not a JSON number or its exponent is beyond what an `Int` holds.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let integerPart = bytes.prefix { $0 >= 48 && $0 <= 57 }
        bytes = bytes.dropFirst(integerPart.count)
        var fraction: ArraySlice<UInt8> = []
        if bytes.first == UInt8(ascii: ".") {
            fraction = bytes.dropFirst().prefix { $0 >= 48 && $0 <= 57 }
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        var exponent = 0
        let isInteger = bytes.isEmpty && fraction.isEmpty
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            guard let value = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) else { return nil }
            exponent = value
            bytes = []
        }
        guard bytes.isEmpty, !integerPart.isEmpty else { return nil }
        var digits = Array(integerPart) + Array(fraction)
        let (scaled, overflow) = exponent.subtractingReportingOverflow(fraction.count)
        guard !overflow else { return nil }
        exponent = scaled
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        if digits.isEmpty {
            // Zero, however written: Java's stripTrailingZeros gives 0 with scale 0, and an integer 0 is that.
            self.isNegative = false
            self.digits = []
            self.exponent = 0
            return
        }
        if !isInteger {
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                let (next, overflow) = exponent.addingReportingOverflow(1)
                guard !overflow else { return nil }
                exponent = next
            }
        }
        self.isNegative = negative
        self.digits = digits
        self.exponent = exponent
    }
}
