import Tonearm

/// How often each track and rule of one cassette file answered, in one process or merged over a run.
public struct FileUsage: Sendable, Hashable {
    /// The file, as ``UsageSource/standardPath(_:)`` spells it.
    public var path: String
    /// Answers per track, in file order: as many as the file had tracks when it was loaded.
    public var trackPlays: [Int]
    /// Answers per rule, in file order.
    public var rulePlays: [Int]
    /// How many times the file was loaded (sessions, servers, workers).
    public var loads: Int

    /// Creates a file's usage.
    public init(path: String, trackPlays: [Int], rulePlays: [Int], loads: Int = 1) {
        self.path = path
        self.trackPlays = trackPlays
        self.rulePlays = rulePlays
        self.loads = loads
    }

    /// The usage of `source`'s tracks and rules in an engine whose counts are `usage`.
    public init(_ source: UsageSource, in usage: EngineUsage) {
        self.init(
            path: source.path,
            trackPlays: source.tracks.map { usage.trackPlays.indices.contains($0) ? usage.trackPlays[$0] : 0 },
            rulePlays: source.rules.map { usage.rulePlays.indices.contains($0) ? usage.rulePlays[$0] : 0 })
    }

    /// Whether `other` counts the same file as loaded with as many tracks and rules, so the two can be
    /// added position by position.
    func hasShape(of other: FileUsage) -> Bool {
        path == other.path && trackPlays.count == other.trackPlays.count && rulePlays.count == other.rulePlays.count
    }

    /// Adds `other`'s counts (same shape) to these.
    mutating func add(_ other: FileUsage) {
        for index in trackPlays.indices { trackPlays[index] &+= other.trackPlays[index] }
        for index in rulePlays.indices { rulePlays[index] &+= other.rulePlays[index] }
        loads &+= other.loads
    }
}
