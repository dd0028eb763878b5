/// The expression of a JSONPath filter, `[?(…)]`, evaluated for each candidate value.
indirect enum JSONPathFilter: Sendable {
    case exists(JSONPathOperand)
    case compare(JSONPathOperand, JSONPathComparisonOperator, JSONPathOperand)
    case matches(JSONPathOperand, LinearPattern)
    case not(JSONPathFilter)
    case and(JSONPathFilter, JSONPathFilter)
    case or(JSONPathFilter, JSONPathFilter)

    func holds(for candidate: JSONValue, root: JSONValue) -> Bool {
        switch self {
        case .exists(let operand):
            return !operand.values(candidate: candidate, root: root).isEmpty
        case .compare(let left, let comparison, let right):
            guard let leftValue = left.values(candidate: candidate, root: root).first,
                let rightValue = right.values(candidate: candidate, root: root).first
            else { return false }
            return comparison.holds(leftValue, rightValue)
        case .matches(let operand, let pattern):
            guard let value = operand.values(candidate: candidate, root: root).first else { return false }
            switch value {
            case .string(let text), .number(let text): return pattern.matches(text)
            default: return false
            }
        case .not(let inner):
            return !inner.holds(for: candidate, root: root)
        case .and(let left, let right):
            return left.holds(for: candidate, root: root) && right.holds(for: candidate, root: root)
        case .or(let left, let right):
            return left.holds(for: candidate, root: root) || right.holds(for: candidate, root: root)
        }
    }
}

/// A value in a filter: a path from the candidate (`@…`) or the document (`$…`), or a literal.
enum JSONPathOperand: Sendable {
    case relative([JSONPathSegment])
    case absolute([JSONPathSegment])
    case literal(JSONValue)

    func values(candidate: JSONValue, root: JSONValue) -> [JSONValue] {
        switch self {
        case .relative(let segments): JSONPathSegment.apply(segments[...], to: [candidate], root: root)
        case .absolute(let segments): JSONPathSegment.apply(segments[...], to: [root], root: root)
        case .literal(let value): [value]
        }
    }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=`. Numbers compare by value, also against a string holding a number
/// (Jayway's `@.n == 2` holds for `"2"`); strings compare by their scalars; other values by their JSON.
enum JSONPathComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case less = "<"
    case greater = ">"

    func holds(_ left: JSONValue, _ right: JSONValue) -> Bool {
        guard let order = Self.order(left, right) else { return self == .notEqual }
        switch self {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }

    /// -1, 0 or 1, or `nil` when the two cannot be ordered (then only `!=` holds).
    private static func order(_ left: JSONValue, _ right: JSONValue) -> Int? {
        if let leftNumber = number(left, preferred: right), let rightNumber = number(right, preferred: left) {
            return leftNumber < rightNumber ? -1 : leftNumber > rightNumber ? 1 : 0
        }
        switch (left, right) {
        case (.string(let a), .string(let b)):
            let a = Array(a.unicodeScalars.map(\.value)), b = Array(b.unicodeScalars.map(\.value))
            return a == b ? 0 : a.lexicographicallyPrecedes(b) ? -1 : 1
        case (.bool(let a), .bool(let b)):
            return a == b ? 0 : nil
        case (.null, .null):
            return 0
        case (.array, .array), (.object, .object):
            return JSONComparison().matches(left, expected: right) ? 0 : nil
        default:
            return nil
        }
    }

    /// The value as a number: a number, or a string holding one when the other side is a number.
    private static func number(_ value: JSONValue, preferred other: JSONValue) -> Double? {
        switch value {
        case .number(let text): return Double(text)
        case .string(let text):
            // Only digits and signs: Swift's `Double("nan")` and `Double("inf")` would parse.
            guard case .number = other, let number = Double(text), number.isFinite else { return nil }
            return number
        default: return nil
        }
    }
}
