import Tonearm

/// A body written in `pieces` parts over `total`, a pause before each: a slow network, as WireMock's
/// `chunkedDribbleDelay` (`numberOfChunks`, `totalDuration` in milliseconds) simulates it.
package struct Dribble: Sendable, Equatable {
    /// How many parts the body is cut into (fewer when it has fewer bytes).
    package let pieces: Int
    /// How long writing the whole body takes.
    package let total: Duration

    /// The most parts, and the longest total: a typo must not make a server write a byte a second
    /// for days (a stopping server closes a dribbling connection at its shutdown deadline anyway).
    package static let mostPieces = 10_000
    package static let longestMilliseconds = 3_600_000

    /// `pieces` parts over `total`, within ``mostPieces`` and ``longestMilliseconds`` (the caller checks).
    package init(pieces: Int, total: Duration) {
        self.pieces = pieces
        self.total = total
    }
}
