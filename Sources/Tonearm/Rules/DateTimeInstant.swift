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

    /// The same instant with the local date-time (and so the instant) moved by `months` in the
    /// calendar; `nil` beyond the calendar's limits.
    func adding(months: Int64) -> DateTimeInstant? {
        guard let local = CivilCalendar.adding(months: months, to: localSeconds) else { return nil }
        return DateTimeInstant(seconds: local - (localSeconds - seconds), localSeconds: local, nanoseconds: nanoseconds, isZoned: isZoned)
    }

    /// The instant `seconds` later; `nil` beyond the calendar's limits.
    func adding(seconds offset: Int64) -> DateTimeInstant? {
        guard abs(offset) <= CivilCalendar.secondsLimit, abs(localSeconds) <= CivilCalendar.secondsLimit else { return nil }
        return DateTimeInstant(seconds: seconds + offset, localSeconds: localSeconds + offset, nanoseconds: nanoseconds, isZoned: isZoned)
    }

    /// The local date-time moved by `truncation` (in the value's own offset), fractions dropped.
    func truncated(_ truncation: DateTruncation) -> DateTimeInstant {
        guard abs(localSeconds) <= CivilCalendar.secondsLimit else { return self }
        let local = truncation.apply(toLocal: localSeconds)
        return DateTimeInstant(seconds: local - (localSeconds - seconds), localSeconds: local, nanoseconds: 0, isZoned: isZoned)
    }

    /// An instant before or after every date a condition can name.
    static func extreme(future: Bool) -> DateTimeInstant {
        let seconds: Int64 = future ? .max / 2 : .min / 2
        return DateTimeInstant(seconds: seconds, localSeconds: seconds, nanoseconds: 0, isZoned: true)
    }

    var description: String { "\(seconds) s since 1970 (UTC)" + (nanoseconds == 0 ? "" : " + \(nanoseconds) ns") }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// ISO 8601 (`2021-06-14T12:13:14Z`, with `.fraction` and a `±hh:mm` offset, which may be followed by
    /// a zone name in brackets as Java writes it, `…Z[Etc/UTC]`; without an offset, UTC),
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
            // Java's `ZonedDateTime.toString()` adds the zone's name after the offset
            // (`2026-11-27T03:00Z[Etc/UTC]`): the offset already fixes the instant, so the name is
            // skipped (without an offset there is none to go by, and no zone database here: refused).
            if isZoned, scanner.take("[") {
                guard scanner.skipZoneName() else { return nil }
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

    static func make(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int, offset: Int, isZoned: Bool
    ) -> DateTimeInstant? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), (0...9999).contains(year)
        else { return nil }
        // The year is bounded, so nothing here can overflow.
        let days = CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
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

    /// Past a zone name and its closing `]` (`Europe/Paris]`): letters, digits, `/`, `_`, `+`, `-`;
    /// `false` when the name is empty or not closed.
    mutating func skipZoneName() -> Bool {
        let start = position
        while position < bytes.endIndex, bytes[position] != UInt8(ascii: "]") {
            let byte = bytes[position]
            let isNameByte = (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            guard isNameByte else { return false }
            position += 1
        }
        guard position > start, position < bytes.endIndex else { return false }
        position += 1
        return true
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
