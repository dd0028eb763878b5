import Tonearm

/// A body written in `pieces` parts over `total`, a pause before each: a slow network, as WireMock's
/// `chunkedDribbleDelay` (`numberOfChunks`, `totalDuration` in milliseconds) simulates it.
struct Dribble: Sendable, Equatable {
    /// How many parts the body is cut into (fewer when it has fewer bytes).
    let pieces: Int
    /// How long writing the whole body takes.
    let total: Duration

    /// The most parts, and the longest total: a typo must not make a server write a byte a second
    /// for days (a stopping server closes a dribbling connection at its shutdown deadline anyway).
    static let mostPieces = 10_000
    static let longestMilliseconds = 3_600_000

    /// A mapping's `chunkedDribbleDelay` object.
    init(wireMock json: JSONValue) throws(WireMockError) {
        guard case .object(let members) = json else {
            throw Self.invalid("", "an object with numberOfChunks and totalDuration")
        }
        if let unknown = members.first(where: { !["numberOfChunks", "totalDuration"].contains($0.key) }) {
            throw Self.invalid("/\(unknown.key)", "numberOfChunks and totalDuration only")
        }
        guard let pieces = json[member: "numberOfChunks"]?.intValue, pieces >= 1, pieces <= Self.mostPieces else {
            throw Self.invalid("/numberOfChunks", "numberOfChunks from 1 to \(Self.mostPieces)")
        }
        guard let total = json[member: "totalDuration"]?.intValue, total >= 0, total <= Self.longestMilliseconds else {
            throw Self.invalid("/totalDuration", "totalDuration: milliseconds from 0 to \(Self.longestMilliseconds)")
        }
        self.pieces = pieces
        self.total = .milliseconds(total)
    }

    private static func invalid(_ member: String, _ expected: String) -> WireMockError {
        .invalid("/response/chunkedDribbleDelay\(member)", "Error parsing JSON", detail: "chunkedDribbleDelay: expected \(expected)")
    }
}
