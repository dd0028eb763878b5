import Foundation

/// Which of a replay engine's tracks and rules came from one file: what turns the engine's play counts
/// (`Tonearm/EngineUsage`, by position) into a file's usage.
///
/// A loader that puts a file's tracks at engine positions `tracks` and its rules at rule positions
/// `rules`, in the file's order, describes it with one of these.
public struct UsageSource: Sendable, Hashable {
    /// The file (or folder, for formats read from one), absolute and standardised.
    public var path: String
    /// The engine positions of its tracks, in file order.
    public var tracks: Range<Int>
    /// The engine positions of its rules, in file order.
    public var rules: Range<Int>

    /// Describes the file at `url` whose tracks and rules sit at `tracks` and `rules` in an engine.
    public init(url: URL, tracks: Range<Int>, rules: Range<Int>) {
        path = UsageSource.standardPath(url)
        self.tracks = tracks
        self.rules = rules
    }

    /// The one spelling of a file's path records and reports use: absolute, `.` and `..` resolved,
    /// symbolic links followed, so two processes naming one file differently agree.
    public static func standardPath(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The same file with its tracks and rules placed after `trackOffset` tracks and `ruleOffset` rules
    /// loaded before it.
    public func shifted(tracksBy trackOffset: Int, rulesBy ruleOffset: Int) -> UsageSource {
        var shifted = self
        shifted.tracks = (tracks.lowerBound + trackOffset)..<(tracks.upperBound + trackOffset)
        shifted.rules = (rules.lowerBound + ruleOffset)..<(rules.upperBound + ruleOffset)
        return shifted
    }
}
