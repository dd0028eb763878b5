/// Proleptic Gregorian calendar arithmetic on seconds since 1970-01-01T00:00:00 of a local date-time
/// (Howard Hinnant's day algorithms): what date conditions need to add months and truncate, without
/// Foundation's calendars. The one place the project converts dates and day counts (the cassette
/// timestamps use it too).
package enum CivilCalendar {
    /// Days from 1970-01-01 to the date; the year within ±10,000 (callers check) keeps every product small.
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01, for days within ±10,000 years (callers check).
    package static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (era * 400 + yearOfEra + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The bound on month offsets and dates handled: ten thousand years either way keeps every
    /// intermediate far inside `Int64`.
    static let monthLimit: Int64 = 120_000
    static let secondsLimit: Int64 = 400_000_000_000

    /// `seconds` split into whole days and the second of the day (floored, so before 1970 too).
    static func split(_ seconds: Int64) -> (days: Int64, secondOfDay: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        return (days, seconds - days * 86_400)
    }

    /// The local date-time `seconds` plus `months`, the day clamped to the new month's length (31
    /// January plus one month is 28 or 29 February), as Java's `plusMonths`; `nil` beyond the limits.
    static func adding(months: Int64, to seconds: Int64) -> Int64? {
        guard abs(months) <= monthLimit, abs(seconds) <= secondsLimit else { return nil }
        let (days, secondOfDay) = split(seconds)
        let date = date(days: days)
        let monthIndex = date.year * 12 + (date.month - 1) + months
        let year = monthIndex >= 0 ? monthIndex / 12 : -((-monthIndex + 11) / 12)
        let month = monthIndex - year * 12 + 1
        let day = min(date.day, daysInMonth(year: year, month: month))
        return self.days(year: year, month: month, day: day) * 86_400 + secondOfDay
    }
}
