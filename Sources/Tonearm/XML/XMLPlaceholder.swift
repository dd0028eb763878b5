/// The delimiters of XMLUnit placeholders, as regular expressions: `\$\{` and `\}` by default.
public struct XMLPlaceholderDelimiters: Sendable, Hashable {
    /// What opens a placeholder.
    public var opening: String
    /// What closes it.
    public var closing: String

    /// Creates delimiters; `nil` keeps the default of each.
    public init(opening: String? = nil, closing: String? = nil) {
        self.opening = opening ?? "\\$\\{"
        self.closing = closing ?? "\\}"
    }
}

/// A placeholder found in the expected document.
enum XMLPlaceholder: Sendable {
    case ignore
    case isNumber
    case isDateTime
    case matchesRegex(LinearPattern)
    /// A keyword XMLUnit does not know: never matches.
    case unknown

    func accepts(_ value: String?) -> Bool {
        switch self {
        case .ignore: return true
        case .unknown: return false
        case .isNumber: return value.map(Self.isNumber) ?? false
        case .isDateTime:
            guard let value, let bound = DateTimeBound.parse(value) else { return false }
            return !bound.isRelativeToNow
        case .matchesRegex(let pattern): return value.map { pattern.matches($0) } ?? false
        }
    }

    /// A decimal number as Java's `Double.parseDouble` reads one (sign, digits, point, exponent).
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var digits = 0
        while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { digits += 1; bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { digits += 1; bytes = bytes.dropFirst() }
        }
        guard digits > 0 else { return false }
        if let byte = bytes.first, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            var exponentDigits = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { exponentDigits += 1; bytes = bytes.dropFirst() }
            guard exponentDigits > 0 else { return false }
        }
        if let byte = bytes.first, "dDfF".utf8.contains(byte) { bytes = bytes.dropFirst() }
        return bytes.isEmpty
    }
}
