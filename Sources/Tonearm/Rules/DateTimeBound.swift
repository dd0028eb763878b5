#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instant a date condition (``TextCondition/before(_:)``, ``TextCondition/after(_:)``,
/// ``TextCondition/equalsDateTime(_:)``) compares with — a fixed instant, or the time of the request,
/// moved by an offset (seconds to years) and a truncation — and how the tested value is read (its
/// format, its truncation). More options may come, so this is a struct.
public struct DateTimeBound: Sendable, Hashable, CustomStringConvertible {
    enum Base: Sendable, Hashable {
        case instant(DateTimeInstant)
        case now
    }

    let base: Base
    /// Months and seconds added to the base, months first (calendar units: 31 January plus a month is
    /// the end of February).
    private(set) var offsetMonths: Int64 = 0
    private(set) var offsetSeconds: Int64 = 0
    /// Applied to the base after the offset.
    private(set) var truncation: DateTruncation?
    /// Applied to the tested value.
    private(set) var actualTruncation: DateTruncation?
    /// How the tested value is read, when not in the default forms.
    private(set) var actualFormat: DateTimeFormat?

    private init(base: Base) {
        self.base = base
    }

    /// Whether the bound counts from the moment of the test (`now`), not from a fixed instant.
    public var isRelativeToNow: Bool { base == .now }

    /// A fixed instant, as ``parse(_:)`` reads it.
    public static func instant(_ text: String) -> DateTimeBound? {
        DateTimeInstant.parse(text).map { DateTimeBound(base: .instant($0)) }
    }

    /// The moment the value is tested, plus `offsetSeconds` (negative for the past).
    public static func now(offsetSeconds: Int64 = 0) -> DateTimeBound {
        var bound = DateTimeBound(base: .now)
        bound.offsetSeconds = offsetSeconds
        return bound
    }

    /// `now`, `now +3 days`, `now -15 minutes` (seconds, minutes, hours, days, weeks, months, years), or
    /// a date-time ``instant(_:)`` reads; `nil` for anything else.
    public static func parse(_ text: String) -> DateTimeBound? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first?.lowercased() == "now" else { return instant(text) }
        if words.count == 1 { return now() }
        guard words.count == 3, let amount = Int64(words[1].hasPrefix("+") ? words[1].dropFirst() : words[1]) else { return nil }
        return now().offset(by: amount, unit: String(words[2]))
    }

    /// The bound moved by `amount` of `unit` (`seconds`, `minutes`, `hours`, `days`, `weeks`, `months`,
    /// `years`, singular or plural, any case), added to any offset it has; `nil` for another unit or
    /// an offset beyond ten thousand years.
    public func offset(by amount: Int64, unit: String) -> DateTimeBound? {
        var bound = self
        let unitSeconds: Int64
        switch unit.lowercased() {
        case "second", "seconds": unitSeconds = 1
        case "minute", "minutes": unitSeconds = 60
        case "hour", "hours": unitSeconds = 3600
        case "day", "days": unitSeconds = 86_400
        case "week", "weeks": unitSeconds = 604_800
        case "month", "months", "year", "years":
            let months = unit.lowercased().hasPrefix("year") ? amount.multipliedReportingOverflow(by: 12) : (amount, false)
            let (total, overflow) = bound.offsetMonths.addingReportingOverflow(months.0)
            guard !months.1, !overflow, abs(total) <= CivilCalendar.monthLimit else { return nil }
            bound.offsetMonths = total
            return bound
        default: return nil
        }
        let (seconds, overflow) = amount.multipliedReportingOverflow(by: unitSeconds)
        let (total, sumOverflow) = bound.offsetSeconds.addingReportingOverflow(seconds)
        guard !overflow, !sumOverflow, abs(total) <= CivilCalendar.secondsLimit else { return nil }
        bound.offsetSeconds = total
        return bound
    }

    /// The bound, once offset, moved to the start of its hour, day, month or year (WireMock's
    /// `truncateExpected`).
    public func truncated(_ truncation: DateTruncation) -> DateTimeBound {
        var bound = self
        bound.truncation = truncation
        return bound
    }

    /// The bound, comparing the tested value moved by `truncation` (WireMock's `truncateActual`).
    public func truncatingActual(_ truncation: DateTruncation) -> DateTimeBound {
        var bound = self
        bound.actualTruncation = truncation
        return bound
    }

    /// The bound, reading the tested value in `format` (WireMock's `actualFormat`).
    public func readingActual(as format: DateTimeFormat) -> DateTimeBound {
        var bound = self
        bound.actualFormat = format
        return bound
    }

    /// `now`, `now +3 days`, or the instant as UTC text, then the options: `now +1 months, truncated to
    /// first day of month, actual as dd/MM/yyyy`.
    public var description: String {
        var text: String
        switch base {
        case .instant(let instant): text = instant.description
        case .now: text = "now"
        }
        if offsetMonths != 0 { text += " \(offsetMonths > 0 ? "+" : "")\(offsetMonths) months" }
        if offsetSeconds != 0 { text += " \(offsetSeconds > 0 ? "+" : "")\(offsetSeconds) seconds" }
        if let truncation { text += ", truncated to \(truncation)" }
        if let actualTruncation { text += ", actual truncated to \(actualTruncation)" }
        if let actualFormat { text += ", actual as \(actualFormat)" }
        return text
    }

    /// Whether the value `text` is before (-1), at (0) or after (1) the bound; `nil` when it is not a
    /// date-time (in ``actualFormat`` when there is one).
    func order(ofText text: String) -> Int? {
        guard var actual = actualFormat.map({ $0.parse(text) }) ?? DateTimeInstant.parse(text) else { return nil }
        if let actualTruncation { actual = actual.truncated(actualTruncation) }
        return order(of: actual)
    }

    /// Whether `actual` is before (-1), at (0) or after (1) the bound. Against a bound written without
    /// a zone (`2021-06-14`, `2021-06-14T12:00:00`), the actual value's local date-time is compared and
    /// its offset ignored, as WireMock does; otherwise instants are compared (a value without a zone is
    /// taken as UTC).
    func order(of actual: DateTimeInstant) -> Int {
        let expected: DateTimeInstant
        switch base {
        case .instant(let instant):
            expected = moved(instant)
        case .now:
            var time = timespec()
            clock_gettime(CLOCK_REALTIME, &time)
            let seconds = Int64(time.tv_sec)
            expected = moved(DateTimeInstant(seconds: seconds, localSeconds: seconds, nanoseconds: Int32(time.tv_nsec), isZoned: true))
        }
        let left: (Int64, Int32), right: (Int64, Int32)
        if expected.isZoned {
            (left, right) = ((actual.seconds, actual.nanoseconds), (expected.seconds, expected.nanoseconds))
        } else {
            (left, right) = ((actual.localSeconds, actual.nanoseconds), (expected.localSeconds, expected.nanoseconds))
        }
        return left < right ? -1 : left > right ? 1 : 0
    }

    /// `instant` with the offset and truncation applied; an instant the calendar limits cannot move
    /// is pushed to the far past or future, so comparisons still come out as the offset's sign says.
    private func moved(_ instant: DateTimeInstant) -> DateTimeInstant {
        var result = instant
        if offsetMonths != 0 {
            guard let moved = result.adding(months: offsetMonths) else { return .extreme(future: offsetMonths > 0) }
            result = moved
        }
        if offsetSeconds != 0 {
            guard let moved = result.adding(seconds: offsetSeconds) else { return .extreme(future: offsetSeconds > 0) }
            result = moved
        }
        if let truncation { result = result.truncated(truncation) }
        return result
    }
}
