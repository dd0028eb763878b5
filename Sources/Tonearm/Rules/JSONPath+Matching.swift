extension JSONPath {
    /// The values a ``BodyLocation/jsonPath(_:)`` condition is tested on (see there): a definite path's
    /// value (an array's elements; null, an empty array or object and null elements left out), or
    /// every value an indefinite path selects (nulls included: WireMock counts `[null]` as a match).
    package func matchedValues(in document: JSONValue) -> [JSONValue] {
        let selected = select(in: document)
        guard isDefinite else { return selected }
        guard let value = selected.first else { return [] }
        switch value {
        case .null: return []
        case .array(let elements): return elements.filter { $0 != .null }
        case .object(let members) where members.isEmpty: return []
        default: return [value]
        }
    }

    /// The text a value is tested by: a string as itself, a number as Java writes it (an integer as
    /// written, any other as `Double.toString` does: `1.0`, `1.5`, `1.0E20`), `true`/`false`, `null`,
    /// an object or array as its JSON text.
    package static func matchText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .number(let text): return javaNumberText(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array, .object: return value.canonicalText
        }
    }

    /// `Double.toString`'s text for a number written with a fraction or exponent: plain between 10^-3
    /// and 10^7 (`1.0`, `0.001`), otherwise scientific (`1.0E7`, `-2.5E-5`), from the shortest digits
    /// that read back as the same double (what Swift prints). An integer keeps its text.
    private static func javaNumberText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let number = Double(text), number.isFinite
        else { return text }
        if number == 0 { return number.sign == .minus ? "-0.0" : "0.0" }
        // Swift's shortest text ("1234567.5", "1e-05", "1.5e+20") as significant digits and the power
        // of ten of the point: value = 0.d1d2… × 10^pointExponent.
        let swift = "\(Swift.abs(number))"
        let parts = swift.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let integerDigits = Array(mantissa[0]), fractionDigits = mantissa.count > 1 ? Array(mantissa[1]) : []
        var digits = integerDigits + fractionDigits
        var pointExponent = integerDigits.count + (parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        while digits.first == "0" {
            digits.removeFirst()
            pointExponent -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        guard !digits.isEmpty else { return "0.0" }
        let sign = number < 0 ? "-" : ""
        let magnitude = Swift.abs(number)
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointExponent <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointExponent) + String(digits)
            }
            let whole = digits.count > pointExponent ? String(digits[..<pointExponent]) : String(digits) + String(repeating: "0", count: pointExponent - digits.count)
            let fraction = digits.count > pointExponent ? String(digits[pointExponent...]) : "0"
            return sign + whole + "." + fraction
        }
        let rest = digits.count > 1 ? String(digits[1...]) : "0"
        return sign + String(digits[0]) + "." + rest + "E" + String(pointExponent - 1)
    }
}
