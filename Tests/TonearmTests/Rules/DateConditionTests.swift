import Testing
import TonearmWorkloads
@testable import Tonearm

@Suite("Date conditions: offsets, truncation and formats")
struct DateConditionTests {
    private func holds(_ condition: TextCondition, _ value: String) throws -> Bool {
        // Date conditions hold no patterns.
        let compiled = try CompiledTextCondition(condition) { pattern throws(RuleError) in
            throw RuleError(ruleIndex: 0, ruleName: "date", pattern: pattern, message: "not a date condition")
        }
        return compiled.holds(for: value)
    }

    @Test("the calendar round-trips every day from year 1 to 9999 and agrees with known dates (property)")
    func calendarRoundTrip() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.date(days: -1) == (1969, 12, 31))
        var random = SeededRandom(seed: 2026)
        for _ in 0..<20_000 {
            let days = Int64.random(in: -719_162...2_932_896, using: &random)
            let date = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            #expect((1...CivilCalendar.daysInMonth(year: date.year, month: date.month)).contains(date.day))
        }
    }

    @Test("adding months clamps the day to the month's length, as Java's plusMonths does")
    func monthsClamp() throws {
        let january31 = CivilCalendar.days(year: 2024, month: 1, day: 31) * 86_400 + 3_600
        let february = try #require(CivilCalendar.adding(months: 1, to: january31))
        #expect(CivilCalendar.split(february).days == CivilCalendar.days(year: 2024, month: 2, day: 29))
        #expect(CivilCalendar.split(february).secondOfDay == 3_600)
        let lastYear = try #require(CivilCalendar.adding(months: -13, to: january31))
        #expect(CivilCalendar.split(lastYear).days == CivilCalendar.days(year: 2022, month: 12, day: 31))
        #expect(CivilCalendar.adding(months: 200_000, to: 0) == nil)
    }

    @Test("Java's ZonedDateTime text: the zone name after the offset is skipped, the offset fixes the instant")
    func javaZonedDateTimeText() throws {
        let bound = try #require(DateTimeBound.parse("2026-11-27T03:00Z[Etc/UTC]"))
        #expect(try holds(.before(bound), "2026-11-27T02:00Z[Etc/UTC]"))
        #expect(try holds(.before(bound), "2026-11-27T03:30+01:00[Europe/Paris]"))
        #expect(try holds(.before(bound), "2026-11-27T02:00:00.123Z[UTC]"))
        #expect(try !holds(.before(bound), "2026-11-27T04:00Z[Etc/UTC]"))
        // No offset to go by, an empty or unclosed name, a name with spaces: not dates.
        for text in ["2026-11-27T02:00[Europe/Paris]", "2026-11-27T02:00Z[]", "2026-11-27T02:00Z[UTC", "2026-11-27T02:00Z[Etc UTC]"] {
            #expect(DateTimeBound.parse(text) == nil, "\(text)")
            #expect(try !holds(.before(bound), text), "\(text)")
        }
    }

    @Test("now with calendar offsets: months and years")
    func calendarOffsets() throws {
        let nextMonth = try #require(DateTimeBound.parse("now +1 months"))
        #expect(try holds(.before(nextMonth), "2000-01-01T00:00:00Z"))
        #expect(try !holds(.before(nextMonth), "2999-01-01T00:00:00Z"))
        let fortyYearsAgo = try #require(DateTimeBound.parse("now -40 years"))
        #expect(try holds(.after(fortyYearsAgo), "2000-01-01T00:00:00Z"))
        #expect(try !holds(.after(fortyYearsAgo), "1970-01-01T00:00:00Z"))
        #expect(DateTimeBound.parse("now +1 fortnights") == nil)
        #expect(DateTimeBound.parse("now +9223372036854775807 years") == nil, "an offset beyond the calendar is refused, not trapped")
    }

    @Test("truncating the tested value: start of hour, first and last day of month, next year")
    func actualTruncation() throws {
        func equalsTruncated(_ expected: String, _ truncation: DateTruncation) throws -> TextCondition {
            .equalsDateTime(try #require(DateTimeBound.instant(expected)).truncatingActual(truncation))
        }
        #expect(try holds(equalsTruncated("2021-06-01T00:00:00Z", .firstDayOfMonth), "2021-06-14T10:00:00Z"))
        #expect(try !holds(equalsTruncated("2021-06-01T00:00:00Z", .firstDayOfMonth), "2021-07-14T10:00:00Z"))
        #expect(try holds(equalsTruncated("2024-02-29T00:00:00Z", .lastDayOfMonth), "2024-02-03T10:00:00Z"))
        #expect(try holds(equalsTruncated("2021-06-14T10:00:00Z", .firstMinuteOfHour), "2021-06-14T10:59:59.999Z"))
        #expect(try holds(equalsTruncated("2022-01-01T00:00:00Z", .firstDayOfNextYear), "2021-12-31T23:59:59Z"))
        // A value with an offset is truncated in its own local time.
        #expect(try holds(equalsTruncated("2021-06-14T00:00:00+02:00", .firstHourOfDay), "2021-06-14T01:30:00+02:00"))
        #expect(DateTruncation("First Day Of Month") == .firstDayOfMonth)
        #expect(DateTruncation("first week of month") == nil)
    }

    @Test("truncating the expected now: after the start of this year")
    func expectedTruncation() throws {
        let startOfYear = DateTimeBound.now().truncated(.firstDayOfYear)
        #expect(try holds(.after(startOfYear), "2999-01-01T00:00:00Z"))
        #expect(try !holds(.after(startOfYear), "2000-01-01T00:00:00Z"))
    }

    @Test("a value in a Java-style pattern: numbers, month and weekday names, AM/PM, quoted text, offsets")
    func actualFormats() throws {
        func bound(_ expected: String, _ pattern: String) throws -> DateTimeBound {
            try #require(DateTimeBound.instant(expected)).readingActual(as: try #require(DateTimeFormat(pattern: pattern)))
        }
        #expect(try holds(.equalsDateTime(try bound("2021-06-14T10:00:00Z", "dd/MM/yyyy HH:mm")), "14/06/2021 10:00"))
        #expect(try !holds(.equalsDateTime(try bound("2021-06-14T10:00:00Z", "dd/MM/yyyy HH:mm")), "2021-06-14T10:00:00Z"))
        #expect(try holds(.equalsDateTime(try bound("2021-06-14", "d MMMM yy")), "14 June 21"))
        #expect(try holds(.before(try bound("2021-06-14T10:00:00", "yyyy.MM.dd 'at' HH:mm:ss")), "2021.06.13 at 23:00:00"))
        #expect(try holds(.equalsDateTime(try bound("2021-06-14T21:30:00", "EEE, d MMM yyyy hh:mm a")), "Mon, 14 Jun 2021 09:30 PM"))
        #expect(try holds(.equalsDateTime(try bound("2021-06-14T08:30:00Z", "yyyy-MM-dd HH:mm:ss.SSSXXX")), "2021-06-14 10:30:00.000+02:00"))
        #expect(try holds(.equalsDateTime(try bound("2021-06-14T10:30:00Z", "yyyyMMddHHmmssX")), "20210614103000Z"))
        #expect(try !holds(.equalsDateTime(try bound("2021-06-14T10:00:00Z", "dd/MM/yyyy HH:mm")), "14/13/2021 10:00"), "month 13")
        #expect(DateTimeFormat(pattern: "yyyy QQ") == nil, "a letter the reader does not know")
        #expect(DateTimeFormat(pattern: "yyyy 'open") == nil, "an open quote")
    }
}
