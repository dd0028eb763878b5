/// Where a date condition moves a date-time before comparing: the start of its hour, day, month or
/// year, as WireMock's `truncateExpected` and `truncateActual` do. More may come, so this is a struct
/// with static members.
public struct DateTruncation: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable, CaseIterable {
        case firstMinuteOfHour, firstHourOfDay, firstDayOfMonth, firstDayOfNextMonth, lastDayOfMonth
        case firstDayOfYear, firstDayOfNextYear, lastDayOfYear
    }

    let kind: Kind

    /// The start of the hour.
    public static let firstMinuteOfHour = DateTruncation(kind: .firstMinuteOfHour)
    /// Midnight at the start of the day.
    public static let firstHourOfDay = DateTruncation(kind: .firstHourOfDay)
    /// Midnight on the first of the month.
    public static let firstDayOfMonth = DateTruncation(kind: .firstDayOfMonth)
    /// Midnight on the first of the next month.
    public static let firstDayOfNextMonth = DateTruncation(kind: .firstDayOfNextMonth)
    /// Midnight on the last day of the month.
    public static let lastDayOfMonth = DateTruncation(kind: .lastDayOfMonth)
    /// Midnight on 1 January.
    public static let firstDayOfYear = DateTruncation(kind: .firstDayOfYear)
    /// Midnight on 1 January of the next year.
    public static let firstDayOfNextYear = DateTruncation(kind: .firstDayOfNextYear)
    /// Midnight on 31 December.
    public static let lastDayOfYear = DateTruncation(kind: .lastDayOfYear)

    /// The truncation WireMock names `text` (`first day of month`, `last day of year`…), case-insensitively;
    /// `nil` for any other text.
    public init?(_ text: String) {
        let words = text.lowercased().split(separator: " ").joined(separator: " ")
        guard let kind = Kind.allCases.first(where: { DateTruncation(kind: $0).description == words }) else { return nil }
        self.kind = kind
    }

    private init(kind: Kind) {
        self.kind = kind
    }

    /// WireMock's name for it: `first minute of hour`, `first day of next month`…
    public var description: String {
        switch kind {
        case .firstMinuteOfHour: "first minute of hour"
        case .firstHourOfDay: "first hour of day"
        case .firstDayOfMonth: "first day of month"
        case .firstDayOfNextMonth: "first day of next month"
        case .lastDayOfMonth: "last day of month"
        case .firstDayOfYear: "first day of year"
        case .firstDayOfNextYear: "first day of next year"
        case .lastDayOfYear: "last day of year"
        }
    }

    /// The local date-time `seconds` moved as the truncation says.
    func apply(toLocal seconds: Int64) -> Int64 {
        let (days, secondOfDay) = CivilCalendar.split(seconds)
        if kind == .firstMinuteOfHour { return days * 86_400 + secondOfDay / 3600 * 3600 }
        let date = CivilCalendar.date(days: days)
        let (year, month, day): (Int64, Int64, Int64) = switch kind {
        case .firstMinuteOfHour, .firstHourOfDay: (date.year, date.month, date.day)
        case .firstDayOfMonth: (date.year, date.month, 1)
        case .firstDayOfNextMonth: date.month == 12 ? (date.year + 1, 1, 1) : (date.year, date.month + 1, 1)
        case .lastDayOfMonth: (date.year, date.month, CivilCalendar.daysInMonth(year: date.year, month: date.month))
        case .firstDayOfYear: (date.year, 1, 1)
        case .firstDayOfNextYear: (date.year + 1, 1, 1)
        case .lastDayOfYear: (date.year, 12, 31)
        }
        return CivilCalendar.days(year: year, month: month, day: day) * 86_400
    }
}
