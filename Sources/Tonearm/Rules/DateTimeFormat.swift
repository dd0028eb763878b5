/// How a date condition reads the value it tests when it is not ISO 8601 or RFC 1123: a pattern in the
/// letters of Java's `DateTimeFormatter` (WireMock's `actualFormat`), such as `dd/MM/yyyy HH:mm`.
///
/// Letters read: `y` (year; `yy` is 2000–2099), `M` (month: `M`/`MM` numbers, `MMM` `Jun`, `MMMM`
/// `June`), `d` (day), `H` (hour 0–23), `h` with `a` (hour 1–12, `AM`/`PM`), `m`, `s`, `S` (fraction),
/// `E` (weekday name, read and not checked), `X`/`x`/`Z` (offsets: `Z`, `+02`, `+0200`, `+02:00`).
/// Text in single quotes, and any character that is not a letter, must appear as written. A value
/// without a time of day is at midnight; without an offset it has no zone.
public struct DateTimeFormat: Sendable, Hashable, CustomStringConvertible {
    enum Field: Sendable, Hashable {
        case literal([UInt8])
        case year(width: Int)
        case month(width: Int)
        case monthName
        case day(width: Int)
        case hour(width: Int)
        case clockHour(width: Int)
        case amPm
        case minute(width: Int)
        case second(width: Int)
        case fraction(width: Int)
        case weekdayName
        /// `Z` accepted for zero when `allowsZ`.
        case offset(allowsZ: Bool)
    }

    /// The pattern as written.
    public let pattern: String
    let fields: [Field]

    /// Reads `pattern`; `nil` when it uses a letter this reader does not know (such as `G` or `Q`) or
    /// leaves a quote open.
    public init?(pattern: String) {
        var fields: [Field] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "'" {
                var literal = ""
                index += 1
                var closed = false
                while index < scalars.count {
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" {
                            literal.unicodeScalars.append("'")
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    literal.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard closed else { return nil }
                fields.append(.literal(literal.isEmpty ? Array("'".utf8) : Array(literal.utf8)))
                continue
            }
            guard scalar.properties.isAlphabetic, scalar.isASCII else {
                fields.append(.literal(Array(String(scalar).utf8)))
                index += 1
                continue
            }
            var width = 1
            while index + width < scalars.count, scalars[index + width] == scalar { width += 1 }
            index += width
            switch scalar {
            case "y", "u": fields.append(.year(width: width))
            case "M", "L": fields.append(width >= 3 ? .monthName : .month(width: width))
            case "d": fields.append(.day(width: width))
            case "H": fields.append(.hour(width: width))
            case "h": fields.append(.clockHour(width: width))
            case "a": fields.append(.amPm)
            case "m": fields.append(.minute(width: width))
            case "s": fields.append(.second(width: width))
            case "S": fields.append(.fraction(width: width))
            case "E": fields.append(.weekdayName)
            case "X": fields.append(.offset(allowsZ: true))
            case "x", "Z": fields.append(.offset(allowsZ: scalar == "Z" && width == 5))
            default: return nil
            }
        }
        self.pattern = pattern
        self.fields = fields
    }

    /// The pattern.
    public var description: String { pattern }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]

    /// The instant `text` names under this pattern, or `nil` when it does not fit.
    func parse(_ text: String) -> DateTimeInstant? {
        var reader = FieldReader(Array(text.utf8))
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanoseconds = 0
        var offset = 0, isZoned = false, afternoon: Bool?
        for field in fields {
            switch field {
            case .literal(let bytes):
                guard reader.take(bytes) else { return nil }
            case .year(let width):
                if width == 2 {
                    guard let value = reader.number(minDigits: 2, maxDigits: 2) else { return nil }
                    year = 2000 + value
                } else {
                    guard let value = reader.number(minDigits: max(width, 1), maxDigits: max(width, 4)) else { return nil }
                    year = value
                }
            case .month(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2) else { return nil }
                month = value
            case .monthName:
                let word = reader.letters().lowercased()
                guard word.count >= 3, let index = Self.monthNames.firstIndex(where: { $0 == word || $0.prefix(3) == word }) else { return nil }
                month = index + 1
            case .day(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2) else { return nil }
                day = value
            case .hour(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2) else { return nil }
                hour = value
            case .clockHour(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2), (1...12).contains(value) else { return nil }
                hour = value % 12
            case .amPm:
                switch reader.letters().uppercased() {
                case "AM": afternoon = false
                case "PM": afternoon = true
                default: return nil
                }
            case .minute(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2) else { return nil }
                minute = value
            case .second(let width):
                guard let value = reader.number(minDigits: width, maxDigits: 2) else { return nil }
                second = value
            case .fraction(let width):
                guard let digits = reader.digits(count: width) else { return nil }
                nanoseconds = digits.prefix(9).reduce(0) { $0 * 10 + $1 }
                for _ in min(digits.count, 9)..<9 { nanoseconds *= 10 }
            case .weekdayName:
                guard !reader.letters().isEmpty else { return nil }
            case .offset(let allowsZ):
                if allowsZ, reader.take(Array("Z".utf8)) {
                    isZoned = true
                    continue
                }
                guard let value = reader.offset() else { return nil }
                offset = value
                isZoned = true
            }
        }
        guard reader.atEnd else { return nil }
        if let afternoon, afternoon { hour += 12 }
        return DateTimeInstant.make(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanoseconds: nanoseconds, offset: offset,
            isZoned: isZoned)
    }
}

/// Reads a formatted date-time's fields from its bytes.
private struct FieldReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { position == bytes.count }

    mutating func take(_ expected: [UInt8]) -> Bool {
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else { return false }
        position += expected.count
        return true
    }

    /// A number of `minDigits` to `maxDigits` digits, as many as there are.
    mutating func number(minDigits: Int, maxDigits: Int) -> Int? {
        var value = 0, count = 0
        while count < maxDigits, position < bytes.count, (48...57).contains(bytes[position]) {
            value = value * 10 + Int(bytes[position] - 48)
            position += 1
            count += 1
        }
        return count >= minDigits && count > 0 ? value : nil
    }

    /// At least `count` digits, and any more that follow.
    mutating func digits(count: Int) -> [Int]? {
        var digits: [Int] = []
        while position < bytes.count, (48...57).contains(bytes[position]) {
            digits.append(Int(bytes[position] - 48))
            position += 1
        }
        return digits.count >= count ? digits : nil
    }

    mutating func letters() -> String {
        let start = position
        while position < bytes.count, (65...90).contains(bytes[position]) || (97...122).contains(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `+02`, `+0200` or `+02:00` (or `-`), in seconds.
    mutating func offset() -> Int? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
        position += 1
        guard let hours = number(minDigits: 2, maxDigits: 2), hours <= 18 else { return nil }
        _ = take(Array(":".utf8))
        let minutes = number(minDigits: 2, maxDigits: 2) ?? 0
        guard minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
