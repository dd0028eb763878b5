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

    private static func javaNumberText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let number = Double(text), number.isFinite
        else { return text }
        let magnitude = Swift.abs(number)
        if magnitude == 0 || (magnitude >= 1e-3 && magnitude < 1e7) {
            // Swift's shortest form (`1.0`, `0.001`, `1234567.5`) is Java's in this range.
            let swift = "\(number)"
            return swift.contains("e") ? text : swift
        }
        // Swift writes `1e+20` or `1.5e-05`; Java `1.0E20` and `1.5E-5`.
        let swift = "\(number)"
        guard let marker = swift.firstIndex(of: "e") else { return swift }
        var mantissa = String(swift[..<marker])
        if !mantissa.contains(".") { mantissa += ".0" }
        var exponent = String(swift[swift.index(after: marker)...])
        let negative = exponent.hasPrefix("-")
        exponent = String(exponent.drop { $0 == "+" || $0 == "-" || $0 == "0" })
        return mantissa + "E" + (negative ? "-" : "") + (exponent.isEmpty ? "0" : exponent)
    }
}
