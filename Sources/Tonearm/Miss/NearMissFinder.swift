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

    /// How many of the cheaply ranked candidates get a detailed, field-by-field comparison.
    static let detailedCount = 6

    /// Ranks candidates in two passes: first by which canonical lines differ (hashes of the lines, read
    /// in place), then the best few by their detailed differences, which parse JSON bodies.
    static func nearest(to request: CanonicalRequest, in index: TrackIndex) -> (nearest: [NearMiss], compared: Int) {
        let positions = candidates(for: request, in: index)
        let received = LineSignature(request)
        let shortlisted = positions.enumerated().map { order, position in
            let canonical = index.canonicalizer.canonicalize(index.recordedTrack(at: position).request)
            return (order: order, position: position, canonical: canonical, distance: received.distance(to: LineSignature(canonical)))
        }
        .sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }
        .prefix(detailedCount)
        let receivedDetail = ComparableRequest(request)
        let ranked = shortlisted.map { entry -> (order: Int, waitsForState: Int, nearMiss: NearMiss) in
            let track = index.recordedTrack(at: entry.position)
            var differences = RequestComparison.differences(recorded: ComparableRequest(entry.canonical), received: receivedDetail)
            let state = scenarioDifference(track, states: index.scenarioStates)
            if let state { differences.append(state) }
            return (entry.order, state == nil ? 1 : 0, NearMiss(position: entry.position, track: track, differences: differences))
        }
        // Among equally close tracks, one that is the request's own but waits for a scenario state
        // explains the miss best, so it comes first.
        .sorted {
            ($0.nearMiss.distance, $0.waitsForState, $0.order) < ($1.nearMiss.distance, $1.waitsForState, $1.order)
        }
        .prefix(reportedCount)
        .map(\.nearMiss)
        return (Array(ranked), positions.count)
    }

    /// The scenario state `track` waits for, when its scenario is in another one now.
    private static func scenarioDifference(_ track: Track, states: ScenarioStates) -> FieldDifference? {
        guard let step = track.scenario, let required = step.requiredState else { return nil }
        let current = states.state(of: step.name)
        return current == required ? nil : .scenarioState(scenario: step.name, current: current, required: required)
    }

    private static func candidates(for request: CanonicalRequest, in index: TrackIndex) -> [Int] {
        let hashes = ShortlistHashes(request)
        var seen = Set<Int>()
        var result: [Int] = []
        for (grouping, hash) in [(index.routes, hashes.route), (index.shapes, hashes.shape), (index.origins, hashes.origin)] {
            guard let group = grouping.group(for: hash, check: 0) else { continue }
            for position in grouping.members(of: group) where !index.isRemoved(position) && seen.insert(position).inserted {
                result.append(position)
                if result.count == candidateLimit { return result }
            }
        }
        return result
    }
}
