import Foundation
import Tonearm

/// A recording: tracks in the order they were recorded, with the metadata the native format keeps.
public struct Cassette: Sendable, Hashable {
    /// An optional name (DVR cassettes have one; the native format keeps it).
    public var name: String?
    /// The strategy the recording is meant to be replayed with, when the recorder knew it.
    public var strategy: StrategyHint?
    /// The tracks, in recording order.
    public var entries: [CassetteEntry]

    /// Creates a cassette.
    public init(name: String? = nil, strategy: StrategyHint? = nil, entries: [CassetteEntry] = []) {
        self.name = name
        self.strategy = strategy
        self.entries = entries
    }

    /// Creates a cassette from bare tracks.
    public init(name: String? = nil, tracks: [Track]) {
        self.init(name: name, entries: tracks.map { CassetteEntry($0) })
    }

    /// The tracks, in recording order, ready for a `ReplayEngine`.
    public var tracks: [Track] { entries.map(\.track) }
}

/// One track with the metadata a cassette stores beside it.
public struct CassetteEntry: Sendable, Hashable {
    /// The request and its outcome, name and delay.
    public var track: Track
    /// When the exchange was recorded (kept to the millisecond in the native format).
    public var recordedAt: Date?
    /// Hints for strategies, e.g. that the track is part of a FIFO sequence.
    public var hints: TrackHints

    /// Creates an entry.
    public init(_ track: Track, recordedAt: Date? = nil, hints: TrackHints = TrackHints()) {
        self.track = track
        self.recordedAt = recordedAt
        self.hints = hints
    }
}

/// How a track expects to be replayed, beyond what the engine enforces (a stateful scenario is the
/// track's own `Track/scenario`, which the engine enforces). The engine does not read hints; they are
/// kept so that converting between formats and re-saving loses nothing, and so tools can pick a strategy.
public struct TrackHints: Sendable, Hashable {
    /// The name of a sequence the track belongs to: tracks with the same request in one sequence are
    /// meant to answer in recording order (FIFO).
    public var sequence: String?

    /// Creates hints.
    public init(sequence: String? = nil) {
        self.sequence = sequence
    }

    /// Whether no hint is set.
    public var isEmpty: Bool { sequence == nil }
}
