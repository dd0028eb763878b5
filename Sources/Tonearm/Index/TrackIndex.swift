/// Recorded tracks indexed by request key, built once and shared read-only by every strategy.
///
/// Finding the tracks for a key costs one table probe whatever the number of tracks. Three coarser
/// groupings (method + URL, route shape, origin) exist only to shortlist candidates when a request
/// misses, so a miss report never scans every track.
public struct TrackIndex: Sendable {
    /// The tracks, in recording order; a track's position here is its index everywhere else.
    public let tracks: [Track]
    /// The canonicalizer every key in the index was made with.
    public let canonicalizer: RequestCanonicalizer
    /// Notes from canonicalising the tracks (e.g. a recorded JSON body that did not parse), by position.
    public let notes: [(track: Int, note: CanonicalRequest.Note)]

    let keys: TrackGrouping
    let routes: TrackGrouping
    let shapes: TrackGrouping
    let origins: TrackGrouping

    /// Canonicalises and indexes `tracks`.
    public init(tracks: [Track], canonicalizer: RequestCanonicalizer = RequestCanonicalizer()) {
        var keyHashes: [UInt64] = [], keyChecks: [UInt64] = []
        var routeHashes: [UInt64] = [], shapeHashes: [UInt64] = [], originHashes: [UInt64] = []
        keyHashes.reserveCapacity(tracks.count)
        keyChecks.reserveCapacity(tracks.count)
        routeHashes.reserveCapacity(tracks.count)
        shapeHashes.reserveCapacity(tracks.count)
        originHashes.reserveCapacity(tracks.count)
        var notes: [(track: Int, note: CanonicalRequest.Note)] = []
        for (position, track) in tracks.enumerated() {
            let canonical = canonicalizer.canonicalize(track.request)
            let key = RequestKey(canonicalBytes: canonical.bytes)
            keyHashes.append(key.value)
            keyChecks.append(key.check)
            let shortlist = ShortlistHashes(canonical)
            routeHashes.append(shortlist.route)
            shapeHashes.append(shortlist.shape)
            originHashes.append(shortlist.origin)
            notes.append(contentsOf: canonical.notes.map { (position, $0) })
        }
        self.tracks = tracks
        self.canonicalizer = canonicalizer
        self.notes = notes
        keys = TrackGrouping(hashes: keyHashes, checks: keyChecks, keepingGroupOfTrack: true)
        routes = TrackGrouping(hashes: routeHashes)
        shapes = TrackGrouping(hashes: shapeHashes)
        origins = TrackGrouping(hashes: originHashes)
    }

    /// The positions of the tracks recorded for `key`, in recording order; empty when none were.
    public func positions(for key: RequestKey) -> ArraySlice<Int32> {
        guard let group = keys.group(for: key.value, check: key.check) else { return [] }
        return keys.members(of: group)
    }

    /// The key group of `key`, if any track has it.
    @inline(__always)
    func keyGroup(for key: RequestKey) -> Int32? {
        keys.group(for: key.value, check: key.check)
    }

    /// The number of distinct keys among the tracks.
    public var distinctKeyCount: Int { keys.groupCount }

    /// Bytes the index itself holds beyond the tracks (the figure the benchmarks report per track).
    public var indexBytes: Int {
        keys.storageBytes + routes.storageBytes + shapes.storageBytes + origins.storageBytes
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
