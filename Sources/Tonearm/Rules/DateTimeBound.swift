#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instant a date condition (``TextCondition/before(_:)``, ``TextCondition/after(_:)``,
/// ``TextCondition/equalsDateTime(_:)``) compares with: a fixed instant, or the time of the request
/// plus an offset. More kinds (calendar offsets, truncation) may come, so this is a struct.
public struct DateTimeBound: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable, Hashable {
        case instant(DateTimeInstant)
        case now(offsetSeconds: Int64)
    }

    let storage: Storage

    /// A fixed instant, as ``parse(_:)`` reads it.
    public static func instant(_ text: String) -> DateTimeBound? {
        DateTimeInstant.parse(text).map { DateTimeBound(storage: .instant($0)) }
    }

    /// The moment the value is tested, plus `offsetSeconds` (negative for the past).
    public static func now(offsetSeconds: Int64 = 0) -> DateTimeBound { DateTimeBound(storage: .now(offsetSeconds: offsetSeconds)) }

    /// `now`, `now +3 days`, `now -15 minutes` (seconds, minutes, hours, days, weeks), or a date-time
    /// ``instant(_:)`` reads; `nil` for anything else (calendar units such as months included).
    public static func parse(_ text: String) -> DateTimeBound? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first?.lowercased() == "now" else { return instant(text) }
        if words.count == 1 { return now() }
        guard words.count == 3, let amount = Int64(words[1].hasPrefix("+") ? words[1].dropFirst() : words[1]) else { return nil }
        let unitSeconds: Int64
        switch words[2].lowercased() {
        case "second", "seconds": unitSeconds = 1
        case "minute", "minutes": unitSeconds = 60
        case "hour", "hours": unitSeconds = 3600
        case "day", "days": unitSeconds = 86_400
        case "week", "weeks": unitSeconds = 604_800
        default: return nil
        }
        let (offset, overflow) = amount.multipliedReportingOverflow(by: unitSeconds)
        return overflow ? nil : now(offsetSeconds: offset)
    }

    /// `now`, `now +60 seconds`, or the instant as UTC ISO 8601 text.
    public var description: String {
        switch storage {
        case .instant(let instant): instant.description
        case .now(let offset): offset == 0 ? "now" : "now \(offset > 0 ? "+" : "")\(offset) seconds"
        }
    }

    /// Whether `actual` is before (-1), at (0) or after (1) the bound. Against a bound written without
    /// a zone (`2021-06-14`, `2021-06-14T12:00:00`), the actual value's local date-time is compared and
    /// its offset ignored, as WireMock does; otherwise instants are compared (a value without a zone is
    /// taken as UTC).
    func order(of actual: DateTimeInstant) -> Int {
        let left: (Int64, Int32), right: (Int64, Int32)
        switch storage {
        case .instant(let expected) where expected.isZoned:
            (left, right) = ((actual.seconds, actual.nanoseconds), (expected.seconds, expected.nanoseconds))
        case .instant(let expected):
            (left, right) = ((actual.localSeconds, actual.nanoseconds), (expected.localSeconds, expected.nanoseconds))
        case .now(let offset):
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            let (seconds, overflow) = Int64(time.tv_sec).addingReportingOverflow(offset)
            (left, right) = ((actual.seconds, actual.nanoseconds), (overflow ? (offset > 0 ? .max : .min) : seconds, Int32(time.tv_nsec)))
        }
        return left < right ? -1 : left > right ? 1 : 0
    }
}

/// A point in time: seconds since 1970-01-01T00:00:00Z and nanoseconds, read from the forms WireMock
/// accepts in headers and bodies.
struct DateTimeInstant: Sendable, Hashable, CustomStringConvertible {
    /// Seconds since the epoch, the offset applied (a value without a zone taken as UTC).
    let seconds: Int64
    /// Seconds since the epoch of the local date-time, the offset not applied.
    let localSeconds: Int64
    let nanoseconds: Int32
    /// Whether the text named a zone (`Z`, `+02:00`, `GMT`).
    let isZoned: Bool

    var description: String { "\(seconds) s since 1970 (UTC)" + (nanoseconds == 0 ? "" : " + \(nanoseconds) ns") }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// ISO 8601 (`2021-06-14T12:13:14Z`, with `.fraction` and a `±hh:mm` offset; without one, UTC),
    /// a date alone (its midnight, UTC), or RFC 1123 (`Mon, 14 Jun 2021 12:13:14 GMT`); `nil` otherwise.
    static func parse(_ text: String) -> DateTimeInstant? {
        let bytes = Array(text.utf8)
        if let comma = bytes.firstIndex(of: UInt8(ascii: ",")) { return rfc1123(bytes[(comma + 1)...]) }
        return iso8601(bytes[...])
    }

    private static func iso8601(_ bytes: ArraySlice<UInt8>) -> DateTimeInstant? {
        var scanner = DigitScanner(bytes)
        guard let year = scanner.number(digits: 4), scanner.take("-"), let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2)
        else { return nil }
        var hour = 0, minute = 0, second = 0, nanoseconds = 0, offset = 0, isZoned = false
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let h = scanner.number(digits: 2), scanner.take(":"), let m = scanner.number(digits: 2) else { return nil }
            hour = h
            minute = m
            if scanner.take(":") {
                guard let s = scanner.number(digits: 2) else { return nil }
                second = s
                if scanner.take(".") || scanner.take(",") {
                    var digits = 0
                    while let digit = scanner.digit() {
                        if digits < 9 { nanoseconds = nanoseconds * 10 + digit }
                        digits += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in min(digits, 9)..<9 { nanoseconds *= 10 }
                }
            }
            if scanner.take("Z") || scanner.take("z") {
                isZoned = true
            } else if let sign = scanner.sign() {
                isZoned = true
                guard let offsetHours = scanner.number(digits: 2) else { return nil }
                _ = scanner.take(":")
                let offsetMinutes = scanner.number(digits: 2) ?? 0
                offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        guard scanner.atEnd else { return nil }
        return make(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanoseconds: nanoseconds, offset: offset,
            isZoned: isZoned)
    }

    /// After the weekday and comma: `14 Jun 2021 12:13:14 GMT`.
    private static func rfc1123(_ bytes: ArraySlice<UInt8>) -> DateTimeInstant? {
        let parts = bytes.split(separator: UInt8(ascii: " "))
        guard parts.count == 5, String(decoding: parts[4], as: UTF8.self).uppercased() == "GMT",
            let day = Int(String(decoding: parts[0], as: UTF8.self)),
            let month = months.firstIndex(of: String(decoding: parts[1], as: UTF8.self).lowercased()),
            let year = Int(String(decoding: parts[2], as: UTF8.self))
        else { return nil }
        let time = parts[3].split(separator: UInt8(ascii: ":")).map { Int(String(decoding: $0, as: UTF8.self)) }
        guard time.count == 3, let hour = time[0], let minute = time[1], let second = time[2] else { return nil }
        return make(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, nanoseconds: 0, offset: 0, isZoned: true)
    }

    private static func make(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int, offset: Int, isZoned: Bool
    ) -> DateTimeInstant? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), (0...9999).contains(year)
        else { return nil }
        // Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm); the year is bounded, so
        // nothing here can overflow.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return DateTimeInstant(seconds: local - Int64(offset), localSeconds: local, nanoseconds: Int32(nanoseconds), isZoned: isZoned)
    }
}

/// Reads fixed-width numbers and punctuation from ASCII bytes.
private struct DigitScanner {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var atEnd: Bool { position == bytes.endIndex }

    mutating func digit() -> Int? {
        guard position < bytes.endIndex, bytes[position] >= 48, bytes[position] <= 57 else { return nil }
        defer { position += 1 }
        return Int(bytes[position] - 48)
    }

    mutating func number(digits: Int) -> Int? {
        let start = position
        var value = 0
        for _ in 0..<digits {
            guard let next = digit() else {
                position = start
                return nil
            }
            value = value * 10 + next
        }
        return value
    }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.endIndex, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// `+` as 1, `-` as -1.
    mutating func sign() -> Int? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }
}
