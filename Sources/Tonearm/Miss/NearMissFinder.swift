/// Finds the recorded tracks closest to a request that missed, without scanning every track.
///
/// Candidates come from the index's shortlist groupings, narrowest first: same method and URL, then
/// the same route shape (`/users/{id}`) with any method, then the same origin. At most
/// ``NearMissFinder/candidateLimit`` candidates are canonicalised and compared field by field, so a miss
/// costs the same with 1,000 tracks as with 100,000. The price: in a group larger than the limit
/// (thousands of bodies posted to one endpoint) only the first tracks recorded are compared.
enum NearMissFinder {
    /// How many candidate tracks a miss report compares at most.
    static let candidateLimit = 48
    /// How many closest tracks a report lists.
    static let reportedCount = 3

    static func nearest(to request: CanonicalRequest, in index: TrackIndex) -> (nearest: [NearMiss], compared: Int) {
        let positions = candidates(for: request, in: index)
        let ranked = positions.map { position -> NearMiss in
            let track = index.tracks[position]
            let recorded = index.canonicalizer.canonicalize(track.request)
            let differences = RequestComparison.differences(recorded: recorded, received: request)
            return NearMiss(position: position, track: track, differences: differences)
        }
        .enumerated()
        .sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
        .prefix(reportedCount)
        .map(\.element)
        return (ranked, positions.count)
    }

    private static func candidates(for request: CanonicalRequest, in index: TrackIndex) -> [Int] {
        let hashes = ShortlistHashes(request)
        var seen = Set<Int32>()
        var result: [Int] = []
        for (grouping, hash) in [(index.routes, hashes.route), (index.shapes, hashes.shape), (index.origins, hashes.origin)] {
            guard let group = grouping.group(for: hash, check: 0) else { continue }
            for position in grouping.members(of: group) where seen.insert(position).inserted {
                result.append(Int(position))
                if result.count == candidateLimit { return result }
            }
        }
        return result
    }
}
