import Synchronization

/// Recorded tracks indexed by request key, shared by every strategy, growing and shrinking while
/// requests are matched.
///
/// Finding the tracks for a key costs one table probe whatever the number of tracks. Three coarser
/// groupings (method + URL, route shape, origin) exist only to shortlist candidates when a request
/// misses, so a miss report never scans every track.
///
/// Every track gets a position when it is added, in order; positions are never reused, and a removed
/// track keeps its position (it is marked removed, and every strategy skips it). Readers never lock:
/// adds and removals are serialised among themselves by a `Mutex` and publish with atomic stores (see
/// `TrackGrouping` and `GrowOnlyArray`).
public final class TrackIndex: Sendable {
    /// Where a track is stored, with what indexing it worked out: 12 bytes a track.
    struct Entry {
        let location: TrackStore.Location
        /// The track's group in ``TrackIndex/keys``.
        let keyGroup: UInt32
    }

    /// A note from canonicalising the track at `position`.
    struct PositionedNote {
        let position: Int
        let note: CanonicalRequest.Note
    }

    /// The canonicalizer every key in the index was made with.
    public let canonicalizer: RequestCanonicalizer

    let entries = GrowOnlyArray<Entry>()
    /// The tracks themselves, by ``Entry/location``.
    let store = TrackStore()
    /// Notes, in position order: few tracks have any, so they are not kept per track.
    private let noteList = GrowOnlyArray<PositionedNote>()
    /// Per position: ``removedMark``, ``playedMark`` and ``scenarioMark`` bits.
    private let marks = AtomicSlots()
    /// The state of every scenario the tracks (and the engine's rules) take part in.
    let scenarioStates = ScenarioStates()
    let keys = TrackGrouping(checked: true)
    let routes = TrackGrouping(checked: false)
    let shapes = TrackGrouping(checked: false)
    let origins = TrackGrouping(checked: false)
    private let liveCount = Atomic<Int>(0)
    /// Serialises writers; readers never take it.
    private let writer = Mutex(())

    private static let removedMark = 1
    private static let playedMark = 2
    /// The track has a scenario: strategies step over it and the engine's scenario stage answers it.
    private static let scenarioMark = 4

    /// Canonicalises and indexes `tracks`.
    public convenience init(tracks: [Track] = [], canonicalizer: RequestCanonicalizer = RequestCanonicalizer()) {
        self.init(canonicalizer: canonicalizer) { add in tracks.forEach(add) }
    }

    /// An index of the tracks `build` hands to `add`, in order, without an array of them: how a loader
    /// indexes a cassette as it reads it. Nobody else holds the index while it is built, so tables
    /// outgrown on the way are freed at once instead of kept for readers.
    package init<Failure: Error>(
        canonicalizer: RequestCanonicalizer, building build: (_ add: (Track) -> Void) throws(Failure) -> Void
    ) throws(Failure) {
        self.canonicalizer = canonicalizer
        try build { track in
            _ = insert(track, played: false)
            keys.freeOutgrownTables()
            routes.freeOutgrownTables()
            shapes.freeOutgrownTables()
            origins.freeOutgrownTables()
        }
    }

    /// A track's hashes, worked out once for every grouping.
    private struct KeyedTrack {
        let key: RequestKey
        let shortlist: ShortlistHashes
        let notes: [CanonicalRequest.Note]

        init(_ track: Track, canonicalizer: RequestCanonicalizer) {
            let canonical = canonicalizer.canonicalize(track.request)
            key = RequestKey(canonicalBytes: canonical.bytes)
            shortlist = ShortlistHashes(canonical)
            notes = canonical.notes
        }

        /// Files the track at `position` in every grouping; returns its key group.
        func file(
            at position: Int, keys: TrackGrouping, routes: TrackGrouping, shapes: TrackGrouping,
            origins: TrackGrouping
        ) -> Int {
            let group = keys.add(position: position, hash: key.value, check: key.check)
            routes.add(position: position, hash: shortlist.route)
            shapes.add(position: position, hash: shortlist.shape)
            origins.add(position: position, hash: shortlist.origin)
            return group
        }
    }

    /// Indexes `track` behind every track already added and returns its position. When `played`, the
    /// track counts as already played once (see ``ReplayEngine/add(_:playedByRecordingRequest:)``).
    @discardableResult
    func add(_ track: Track, played: Bool = false) -> Int {
        writer.withLock { _ in insert(track, played: played) }
    }

    /// Marks the track at `position` removed; `false` when there is none or it already was.
    func remove(position: Int) -> Bool {
        writer.withLock { _ in
            guard position >= 0, position < entries.count else { return false }
            let old = marks.load(position)
            guard old & Self.removedMark == 0 else { return false }
            marks.store(position, old | Self.removedMark)
            liveCount.subtract(1, ordering: .relaxed)
            return true
        }
    }

    /// Caller holds `writer` (or builds an index nobody else holds). The track and its entry are
    /// published before the groupings link to them.
    private func insert(_ track: Track, played: Bool) -> Int {
        let keyed = KeyedTrack(track, canonicalizer: canonicalizer)
        let position = entries.count
        // A new key's group is the next group number, which filing it assigns.
        let keyGroup = keys.group(for: keyed.key.value, check: keyed.key.check) ?? keys.groupCount
        let mark = (played ? Self.playedMark : 0) | (track.scenario == nil ? 0 : Self.scenarioMark)
        if mark != 0 { marks.store(position, mark) }
        if track.scenario != nil { scenarioStates.noteScenarioTrack(at: position) }
        for note in keyed.notes { noteList.append(PositionedNote(position: position, note: note)) }
        let location = store.append(track)
        entries.append(Entry(location: location, keyGroup: UInt32(truncatingIfNeeded: keyGroup)))
        _ = keyed.file(at: position, keys: keys, routes: routes, shapes: shapes, origins: origins)
        liveCount.add(1, ordering: .relaxed)
        return position
    }

    /// The live tracks (not removed), in the order they were added: a snapshot.
    public var tracks: [Track] {
        (0..<entries.count).compactMap { track(at: $0) }
    }

    /// Positions handed out so far: live tracks and removed ones.
    public var positionCount: Int { entries.count }

    /// The number of live tracks.
    public var trackCount: Int { liveCount.load(ordering: .relaxed) }

    /// The track at `position`, or `nil` when there is none or it was removed.
    public func track(at position: Int) -> Track? {
        guard position >= 0, position < entries.count, !isRemoved(position) else { return nil }
        return recordedTrack(at: position)
    }

    /// The track at `position`, which must have been published (removed or not); when it answers
    /// `request`, it may share that request's strings instead of allocating equal ones.
    @inline(__always)
    func recordedTrack(at position: Int, answering request: Request? = nil) -> Track {
        store.track(at: entries[position].location, answering: request)
    }

    /// The key group of the track at `position`, which must have been published.
    @inline(__always)
    func keyGroup(at position: Int) -> Int {
        Int(entries[position].keyGroup)
    }

    /// Notes from canonicalising the live tracks (e.g. a recorded JSON body that did not parse), by
    /// position.
    public var notes: [(track: Int, note: CanonicalRequest.Note)] {
        (0..<noteList.count).map { noteList[$0] }.filter { !isRemoved($0.position) }.map { ($0.position, $0.note) }
    }

    /// The positions of the live tracks recorded for `key`, in the order added; empty when none were.
    /// Tracks with a scenario (``Track/scenario``) are among them: the built-in strategies step over
    /// those, leaving them to the engine, and a custom strategy should too.
    public func positions(for key: RequestKey) -> [Int] {
        guard let group = keyGroup(for: key) else { return [] }
        return keys.members(of: group).filter { !isRemoved($0) }
    }

    /// The key group of `key`, if any track ever had it.
    @inline(__always)
    func keyGroup(for key: RequestKey) -> Int? {
        keys.group(for: key.value, check: key.check)
    }

    /// Whether the track at `position` was removed.
    @inline(__always)
    func isRemoved(_ position: Int) -> Bool {
        marks.relaxedLoad(position) & Self.removedMark != 0
    }

    /// Whether the track at `position` is to be skipped by strategies that play each track once: it
    /// was removed, it counts as played by the request that recorded it, or it has a scenario (the
    /// engine's scenario stage answers it).
    @inline(__always)
    func isRemovedOrPrePlayed(_ position: Int) -> Bool {
        marks.relaxedLoad(position) != 0
    }

    /// Whether strategies step over the track at `position`: it was removed, or it has a scenario. The
    /// same one load and test as ``isRemoved(_:)``, so plain tracks cost nothing more.
    @inline(__always)
    func isRemovedOrScenario(_ position: Int) -> Bool {
        marks.relaxedLoad(position) & (Self.removedMark | Self.scenarioMark) != 0
    }

    /// Whether the track at `position` has a scenario (removed or not).
    @inline(__always)
    func hasScenario(_ position: Int) -> Bool {
        marks.relaxedLoad(position) & Self.scenarioMark != 0
    }

    /// Makes tracks that counted as played by their recording playable again (for `reset()`).
    func clearPlayedMarks() {
        writer.withLock { _ in
            for position in 0..<entries.count {
                let mark = marks.load(position)
                if mark & Self.playedMark != 0 { marks.store(position, mark & ~Self.playedMark) }
            }
        }
    }

    /// The number of distinct keys among the tracks ever added.
    public var distinctKeyCount: Int { keys.groupCount }

    /// Bytes the index itself holds beyond the tracks (the figure the benchmarks report per track):
    /// tables, links, marks, and the entries locating each track.
    public var indexBytes: Int {
        writer.withLock { _ in
            entries.storageBytes + noteList.storageBytes + marks.storageBytes
                + keys.storageBytes + routes.storageBytes + shapes.storageBytes + origins.storageBytes
        }
    }

    /// How the tracks are stored: how many packed and as values, and the bytes the store holds (the
    /// values' strings and arrays not included).
    package var trackStorage: (packed: Int, values: Int, bytes: Int) {
        writer.withLock { _ in (store.packedCount, store.valueCount, store.storageBytes) }
    }
}

/// The hashes that place a request in the miss-report shortlist groupings.
struct ShortlistHashes {
    /// Method, origin and exact path.
    let route: UInt64
    /// Origin and path with identifier-like segments replaced (any method).
    let shape: UInt64
    /// Scheme, host and port.
    let origin: UInt64

    init(_ canonical: CanonicalRequest) {
        let url = canonical.url
        route = xxh3(canonical.method + " " + url.withoutQuery)
        shape = xxh3(url.origin + RouteTemplate.template(of: url.path))
        origin = xxh3(url.origin)
    }
}
