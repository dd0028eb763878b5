import Foundation
import Tonearm

/// The values a cassette can hold, checked in one place by every importer and by the writers, so
/// that whatever an importer accepts is written natively and loads back (issue 9: `convert` used to
/// write statuses and times its own reader then refused).
///
/// - Statuses are three-digit HTTP status codes, 100 to 999.
/// - Delays are whole milliseconds from 0 to `Int.max`.
/// - Times are ``Timestamp``'s: years 0000 to 9999, to the millisecond.
enum RecordedLimits {
    /// The status codes a cassette holds.
    static let statuses = 100...999
    /// How the status range is described in errors.
    static let statusDescription = "a status code from 100 to 999"
    /// How the delay range is described in errors.
    static let delayDescription = "a delay of 0 or more whole milliseconds"

    /// `duration` in whole milliseconds (rounded), or `nil` when it is negative or beyond `Int.max`
    /// milliseconds; computed with overflow checks because a duration can come from anywhere.
    static func milliseconds(_ duration: Duration) -> Int? {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return nil }
        let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1000)
        // Attoseconds are below 10^18, so their milliseconds are at most 1000.
        let (total, carry) = whole.addingReportingOverflow(Int((Double(attoseconds) / 1e15).rounded()))
        return overflow || carry ? nil : total
    }

    /// The first value in `entry` the native format cannot hold, as an error at `path` (e.g. `$.tracks[3]`).
    static func check(_ entry: CassetteEntry, at path: String) throws(CassetteError) {
        if let recordedAt = entry.recordedAt, !Timestamp.isRepresentable(recordedAt) {
            throw CassetteError(
                path: path + ".recordedAt", expected: Timestamp.rangeDescription,
                found: "\(recordedAt.timeIntervalSince1970) seconds since 1970")
        }
        if case .response(let response) = entry.track.outcome, !statuses.contains(response.status) {
            throw CassetteError(path: path + ".response.status", expected: statusDescription, found: "\(response.status)")
        }
        if let delay = entry.track.delay, milliseconds(delay) == nil {
            throw CassetteError(path: path + ".delayMilliseconds", expected: delayDescription, found: "\(delay)")
        }
    }
}

extension DocumentCursor {
    /// This value as a status code within ``RecordedLimits/statuses``.
    func statusCode() throws(CassetteError) -> Int {
        let status = try int()
        guard RecordedLimits.statuses.contains(status) else {
            throw error(expected: RecordedLimits.statusDescription, found: "\(status)")
        }
        return status
    }

    /// This value as a delay in milliseconds, 0 or more.
    func delay() throws(CassetteError) -> Duration {
        let milliseconds = try int()
        guard milliseconds >= 0 else { throw error(expected: RecordedLimits.delayDescription, found: "\(milliseconds)") }
        return .milliseconds(milliseconds)
    }

    /// This value read by `parse` as a recording time; when it is not one a cassette can store, `nil`
    /// and a warning saying the time was dropped (the time is informational, the track is kept).
    func recordingTime(
        file: String?, warnings: inout [ImportWarning], _ parse: (DocumentCursor) throws(CassetteError) -> Date?
    ) throws(CassetteError) -> Date? {
        if let date = try parse(self) { return date }
        let text = (try? scalarText()) ?? node.kindDescription
        warnings.append(ImportWarning(
            file: file, path: path.description,
            message: "dropped the recording time \(text.debugDescription): not \(Timestamp.rangeDescription) in a form Tonearm reads"))
        return nil
    }
}
