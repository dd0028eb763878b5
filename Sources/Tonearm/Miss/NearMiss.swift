/// A recorded track close to a request that missed, with exactly what differs.
public struct NearMiss: Sendable, CustomStringConvertible {
    /// The track's position in the engine's tracks.
    public var position: Int
    /// The track.
    public var track: Track
    /// What differs between the track's request and the live request; empty when the request has the
    /// track's key (the track exists but the strategy would not play it, e.g. already played).
    public var differences: [FieldDifference]

    /// How many differences the text lists per track; `differences` always holds them all.
    static let listedDifferences = 12

    /// The sum of the differences' weights: smaller is closer.
    package var distance: Int { differences.reduce(0) { $0 + $1.weight } }

    /// The track's label and its differences, one per line.
    public var description: String {
        let label = "track #\(position)" + (track.name.map { " \"\($0)\"" } ?? "")
            + " (\(track.request.method) \(track.request.url))"
        guard !differences.isEmpty else { return label + ": same key" }
        let count = differences.count
        var lines = differences.prefix(Self.listedDifferences).map { "    - \($0)" }
        if count > Self.listedDifferences { lines.append("    … and \(count - Self.listedDifferences) more") }
        return label + ": \(count) difference\(count == 1 ? "" : "s")\n" + lines.joined(separator: "\n")
    }
}
