import Foundation
import Tonearm

/// Reads and writes recording times without formatters, so output is deterministic and fast.
///
/// Cassettes store times in UTC with millisecond precision: `2024-01-19T11:41:09.123Z`, with a
/// four-digit year. Only times from `0000-01-01T00:00:00.000Z` to `9999-12-31T23:59:59.999Z` can be
/// written that way, so the parsers answer `nil` for anything outside (rather than a date the writer
/// would then refuse), and all arithmetic on file-supplied numbers is bounded before it is done.
package enum Timestamp {
    /// Milliseconds since 1970 of `0000-01-01T00:00:00.000Z`, the earliest time a cassette stores.
    static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// Milliseconds since 1970 of `9999-12-31T23:59:59.999Z`, the latest time a cassette stores.
    static let latestMilliseconds: Int64 = 253_402_300_799_999
    /// How the range is described in errors and warnings.
    static let rangeDescription = "a time from year 0000 to 9999"

    /// `date` rounded to the millisecond, when it is a time a cassette can store.
    static func milliseconds(_ date: Date) -> Int64? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // Comparing as doubles first keeps the conversion to Int64 from trapping on 1e300 or infinity.
        guard milliseconds.isFinite, milliseconds >= Double(earliestMilliseconds), milliseconds <= Double(latestMilliseconds) else {
            return nil
        }
        return Int64(milliseconds)
    }

    /// Whether `date` can be written (its year, after rounding to the millisecond, is 0000 to 9999).
    static func isRepresentable(_ date: Date) -> Bool {
        milliseconds(date) != nil
    }

    /// `date` as cassettes store it, `YYYY-MM-DDTHH:MM:SS.mmmZ` rounded to the millisecond; `nil` outside
    /// years 0000–9999, which that form cannot hold.
    static func cassetteText(_ date: Date) -> String? {
        guard let milliseconds = milliseconds(date) else { return nil }
        let (days, dayMilliseconds) = floorDivide(milliseconds, 86_400_000)
        let civil = CivilCalendar.date(days: days)
        let (year, month, day) = (Int(civil.year), Int(civil.month), Int(civil.day))
        let seconds = dayMilliseconds / 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(seconds / 3600, 2) + ":"
            + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + "." + pad(dayMilliseconds % 1000, 3) + "Z"
    }

    /// `date` as text for any date: ``cassetteText(_:)`` when representable, else the seconds since 1970,
    /// so a document holding an out-of-range date (a property list) still reads instead of trapping.
    package static func iso8601(_ date: Date) -> String {
        cassetteText(date) ?? String(date.timeIntervalSince1970)
    }

    /// A date from ISO 8601 / RFC 3339 text (`2023-07-25T10:42:01.726810+00:00`, `...Z`), or `nil` when the
    /// text is not one or names a time outside years 0000–9999.
    static func parseISO8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
        }
        guard let offset = zoneOffset(bytes[index...]) else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction, offset: offset)
    }

    /// A date from RFC 1123 text as Ruby VCR writes it (`Fri, 15 Nov 2019 09:46:36 GMT`), or `nil` when the
    /// text is not one or names a time outside years 0000–9999.
    static func parseRFC1123(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" || parts[5] == "UTC",
            let day = Int(parts[1]), let year = Int(parts[3]),
            let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                .firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return date(year: year, month: month, day: day, hour: time[0], minute: time[1], second: time[2], fraction: 0, offset: 0)
    }

    /// A date from Unix seconds, or `nil` outside years 0000–9999.
    static func date(secondsSince1970 seconds: Double) -> Date? {
        let date = Date(timeIntervalSince1970: seconds)
        return isRepresentable(date) ? date : nil
    }

    /// Any of the formats cassettes use.
    static func parse(_ text: String) -> Date? {
        if let date = parseISO8601(text) ?? parseRFC1123(text) { return date }
        // R vcr writes `2018-04-03 22:55:02 GMT`: ISO 8601's fields with the zone named after a space.
        if text.hasSuffix(" GMT") || text.hasSuffix(" UTC"), let date = parseISO8601(String(text.dropLast(4))) { return date }
        return Double(text).flatMap { date(secondsSince1970: $0) }
    }

    /// The date of checked calendar fields. Every field is range-checked before any arithmetic, so a
    /// file's `999999999999999999:00:00` or year `9223372036854775807` is `nil`, not an overflow.
    private static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offset: Int
    ) -> Date? {
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0..<24).contains(hour),
            (0..<60).contains(minute), (0...60).contains(second), abs(offset) < 86_400
        else { return nil }
        let days = CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) - Double(offset)
        return self.date(secondsSince1970: seconds + fraction)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int) {
        var quotient = value / divisor, remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, Int(remainder))
    }

    private static func zoneOffset(_ rest: ArraySlice<UInt8>) -> Int? {
        guard let sign = rest.first else { return 0 }
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return rest.count == 1 ? 0 : nil }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = Array(rest.dropFirst().filter { $0 != UInt8(ascii: ":") })
        guard digits.count == 4, let hours = number(digits, 0, 2), let minutes = number(digits, 2, 2) else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// A fixed-width decimal field; at most four digits, so it cannot overflow.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    /// `value` in decimal, zero-padded to `width` digits (callers pass non-negative values).
    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
