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
    static let detailedCount = 8

    /// Ranks candidates in two passes: first by which canonical lines differ (byte comparisons only),
    /// then the best few by their detailed differences, which parse JSON bodies and so cost more.
    static func nearest(to request: CanonicalRequest, in index: TrackIndex) -> (nearest: [NearMiss], compared: Int) {
        let positions = candidates(for: request, in: index)
        let receivedLines = CanonicalLines(request)
        let shortlisted = positions.map { position in
            (position: position, canonical: index.canonicalizer.canonicalize(index.tracks[position].request))
        }
        .enumerated()
        .map { (order: $0.offset, candidate: $0.element, distance: receivedLines.distance(to: CanonicalLines($0.element.canonical))) }
        .sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }
        .prefix(detailedCount)
        let ranked = shortlisted.map { entry -> (order: Int, nearMiss: NearMiss) in
            let differences = RequestComparison.differences(recorded: entry.candidate.canonical, received: request)
            let track = index.tracks[entry.candidate.position]
            return (entry.order, NearMiss(position: entry.candidate.position, track: track, differences: differences))
        }
        .sorted { ($0.nearMiss.distance, $0.order) < ($1.nearMiss.distance, $1.order) }
        .prefix(reportedCount)
        .map(\.nearMiss)
        return (Array(ranked), positions.count)
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

/// A canonical form's lines by label, for the cheap first ranking pass.
private struct CanonicalLines {
    let lines: [String: [[UInt8]]]

    init(_ canonical: CanonicalRequest) {
        var lines: [String: [[UInt8]]] = [:]
        for field in canonical.fields { lines[field.label, default: []].append(field.value) }
        self.lines = lines
    }

    /// The summed weight of the labels whose values differ: method, URL and path weigh most.
    func distance(to other: CanonicalLines) -> Int {
        Set(lines.keys).union(other.lines.keys).reduce(0) { total, label in
            guard lines[label] != other.lines[label] else { return total }
            switch label {
            case "method", "url", "path": return total + 4
            case _ where label.hasPrefix("body:"): return total + 2
            default: return total + 1
            }
        }
    }
}
