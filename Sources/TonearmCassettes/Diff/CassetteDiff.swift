import Tonearm

/// What changed between two recordings of the same traffic, compared by request key rather than by text.
///
/// Tracks are paired by their request key under one matching configuration (see
/// ``CassetteDiffOptions/configuration``): the i-th track with a key in the old cassette is paired with
/// the i-th with that key in the new one, so FIFO sequences pair step by step. Rules are paired the same
/// way by their request conditions. A track only the new cassette has is ``added``, one only the old
/// cassette has is ``removed``, and a pair that answers differently is ``changed``, with each differing
/// part: status or transport error, headers, the body by JSON pointer, delay. Volatile parts are left
/// out (``CassetteDiffOptions``), so a re-recording in which only dates, ids and key order changed has
/// no differences.
///
/// ```swift
/// let diff = CassetteDiff(old: try CassetteFile.load(oldURL), new: try CassetteFile.load(newURL))
/// for change in diff.changed {
///     for difference in change.body?.jsonDifferences ?? [] { print(change.subject, difference) }
/// }
/// ```
public struct CassetteDiff: Sendable, Hashable {
    /// The configuration the keys were made under: the chosen one, without ignored headers and with the
    /// ignored JSON fields added.
    public var configuration: MatchingConfiguration
    /// Tracks and rules only the new cassette has, in listing order (by target, method, key).
    public var added: [UnpairedTrack]
    /// Tracks and rules only the old cassette has, in listing order.
    public var removed: [UnpairedTrack]
    /// Pairs that answer differently, in listing order.
    public var changed: [TrackChange]
    /// How many pairs answer the same.
    public var unchangedCount: Int
    /// What a reviewer should look at in the new cassette, in listing order; see ``DiffFlag/isNew``.
    public var flags: [DiffFlag]

    /// Compares `old` with `new`.
    public init(old: CassetteImport, new: CassetteImport, options: CassetteDiffOptions = CassetteDiffOptions()) {
        self = CassetteComparer(options: options).compare(old, new)
    }

    /// Creates a diff from its parts.
    public init(
        configuration: MatchingConfiguration, added: [UnpairedTrack], removed: [UnpairedTrack], changed: [TrackChange],
        unchangedCount: Int, flags: [DiffFlag]
    ) {
        self.configuration = configuration
        self.added = added
        self.removed = removed
        self.changed = changed
        self.unchangedCount = unchangedCount
        self.flags = flags
    }

    /// Whether a track or rule was added, removed or changed.
    public var hasDifferences: Bool { !added.isEmpty || !removed.isEmpty || !changed.isEmpty }

    /// Whether there is nothing to review: no differences and no flag the new cassette brought. What
    /// `tonearm diff` exits 0 for.
    public var isEmpty: Bool { !hasDifferences && !flags.contains(where: \.isNew) }
}
