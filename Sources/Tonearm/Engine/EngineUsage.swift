/// How often each track and rule of a ``ReplayEngine`` answered: a snapshot from ``ReplayEngine/usage()``.
///
/// Positions are the engine's: a track's place among every track added (removed ones keep theirs, so
/// a cassette loaded first has its tracks at positions `0..<count` in file order), a rule's place among
/// every rule added.
public struct EngineUsage: Sendable, Hashable {
    /// Answers per track position.
    public var trackPlays: [Int]
    /// Answers per rule position.
    public var rulePlays: [Int]

    /// Creates a snapshot.
    public init(trackPlays: [Int] = [], rulePlays: [Int] = []) {
        self.trackPlays = trackPlays
        self.rulePlays = rulePlays
    }
}
