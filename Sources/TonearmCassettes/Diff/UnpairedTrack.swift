import Tonearm

/// A track (or rule) that only one of the two cassettes has: added in the new one, or removed from it.
public struct UnpairedTrack: Sendable, Hashable {
    /// Which track or rule.
    public var subject: DiffSubject
    /// Its index among its file's tracks (among its rules, for a rule).
    public var position: Int
    /// What it answers with.
    public var outcome: Track.Outcome

    /// Creates an unpaired track.
    public init(subject: DiffSubject, position: Int, outcome: Track.Outcome) {
        self.subject = subject
        self.position = position
        self.outcome = outcome
    }
}
