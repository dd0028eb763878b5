import Tonearm

/// Seeded, realistic REST traffic for benchmarking matchers: recorded tracks, and request streams that
/// mix exact repeats, permuted queries, reordered JSON bodies and near-misses.
///
/// ```swift
/// let workload = Workload(trackCount: 10_000, seed: 42)
/// let engine = ReplayEngine(tracks: workload.tracks)
/// for item in workload.stream(count: 1_000) { _ = engine.match(item.request) }
/// ```
/// The same seed gives the same tracks and stream on every platform.
public struct Workload: Sendable {
    /// The recorded tracks; every one has a distinct key under the default configuration.
    public let tracks: [Track]
    private let blueprints: [Blueprint]

    /// Generates `trackCount` tracks from `seed`.
    public init(trackCount: Int, seed: UInt64 = 1, shape: WorkloadShape = WorkloadShape()) {
        var random = SeededRandom(seed: seed)
        var vocabulary = Vocabulary(shape: shape)
        let blueprints = (0..<trackCount).map { vocabulary.blueprint(number: $0, random: &random) }
        self.blueprints = blueprints
        tracks = blueprints.enumerated().map { number, blueprint in
            let body = "{\"id\":\(number),\"ok\":true,\"items\":[1,2,3]}"
            let response = Response(
                status: 200, headers: [HeaderField("Content-Type", "application/json")], body: body)
            return Track(request: blueprint.request(), response: response, name: "track \(number)")
        }
    }

    /// `count` requests drawn from the tracks in proportions `mix`, reproducible from `seed`.
    public func stream(count: Int, mix: StreamMix = .realistic, seed: UInt64 = 2) -> [WorkloadRequest] {
        guard !tracks.isEmpty else { return [] }
        var random = SeededRandom(seed: seed)
        let total = mix.exact + mix.permutedQuery + mix.reorderedJSON + mix.nearMiss
        return (0..<count).map { _ in
            let position = Int.random(in: 0..<tracks.count, using: &random)
            var draw = Double.random(in: 0..<total, using: &random)
            for (kind, share) in [
                (WorkloadRequestKind.exact, mix.exact), (.permutedQuery, mix.permutedQuery),
                (.reorderedJSON, mix.reorderedJSON),
            ] {
                if draw < share { return variant(kind, of: position) }
                draw -= share
            }
            return nearMiss(of: position, random: &random)
        }
    }

    /// Every track exactly once — in recording order, or shuffled by `seed` — each sent as the exact,
    /// permuted-query or reordered-JSON variant in the proportions of `mix` (its near-miss share is
    /// ignored): the stream that strict order and unique-play need to hit every time.
    public func everyTrackOnce(shuffled: Bool, mix: StreamMix = .realisticHits, seed: UInt64 = 5) -> [WorkloadRequest] {
        var random = SeededRandom(seed: seed)
        var positions = Array(tracks.indices)
        if shuffled { positions.shuffle(using: &random) }
        let total = mix.exact + mix.permutedQuery + mix.reorderedJSON
        return positions.map { position in
            guard total > 0 else { return variant(.exact, of: position) }
            let draw = Double.random(in: 0..<total, using: &random)
            let kind: WorkloadRequestKind =
                draw < mix.exact ? .exact : draw < mix.exact + mix.permutedQuery ? .permutedQuery : .reorderedJSON
            return variant(kind, of: position)
        }
    }

    private func variant(_ kind: WorkloadRequestKind, of position: Int) -> WorkloadRequest {
        let blueprint = blueprints[position]
        let request = blueprint.request(
            permuteQuery: kind == .permutedQuery, reorderJSON: kind == .reorderedJSON)
        return WorkloadRequest(request: request, kind: kind, expectedTrack: position)
    }

    /// One detail changed in a way no generated track has: a query value, a JSON leaf, the path's id,
    /// or the method.
    private func nearMiss(of position: Int, random: inout SeededRandom) -> WorkloadRequest {
        var blueprint = blueprints[position]
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !blueprint.query.isEmpty:
            blueprint.query[0].1 = "near-miss"
        case 1:
            if case .json(let document) = blueprint.body {
                blueprint.body = .json(document.replacingFirstLeaf(with: "near-miss"))
            } else {
                blueprint.method = "PATCH"
            }
        case 2:
            blueprint.path += "/near-miss"
        default:
            blueprint.method = "PATCH"
        }
        return WorkloadRequest(request: blueprint.request(), kind: .nearMiss, expectedTrack: nil)
    }
}
