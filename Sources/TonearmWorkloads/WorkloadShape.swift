import Tonearm

/// The mix of traffic a ``Workload`` generates: realistic REST traffic by default.
public struct WorkloadShape: Sendable, Hashable {
    /// How many distinct hosts requests go to.
    public var hostCount = 50
    /// Share of requests that carry a JSON body (the rest of the bodied ones are form or binary).
    public var jsonBodyShare = 0.45
    /// Share of requests with an `application/x-www-form-urlencoded` body.
    public var formBodyShare = 0.07
    /// Share of requests with a binary (`application/octet-stream`) body.
    public var binaryBodyShare = 0.05
    /// Share of JSON bodies that are large (4 KiB to 64 KiB) rather than small (up to ~2 KiB).
    public var largeJSONShare = 0.03
    /// The most query parameters a request has (each has 0 through this many).
    public var maxQueryParameters = 8

    /// Realistic REST traffic.
    public init() {}
}

/// What a stream request is meant to test.
public enum WorkloadRequestKind: String, Sendable, Hashable, CaseIterable {
    /// Exactly the recorded request.
    case exact
    /// The recorded request with its query parameters in another order.
    case permutedQuery
    /// The recorded request with its JSON body's members reordered and re-spaced.
    case reorderedJSON
    /// A near-miss: one detail changed, so it must not match.
    case nearMiss
}

/// One request of a replay stream, with the answer it should get.
public struct WorkloadRequest: Sendable {
    /// The request to send.
    public var request: Request
    /// What it tests.
    public var kind: WorkloadRequestKind
    /// The position of the track it should hit, or `nil` when it should miss.
    public var expectedTrack: Int?
}

/// The share of each request kind in a replay stream.
public struct StreamMix: Sendable, Hashable {
    /// Share of exact repeats.
    public var exact: Double
    /// Share with permuted queries.
    public var permutedQuery: Double
    /// Share with reordered JSON bodies.
    public var reorderedJSON: Double
    /// Share of near-misses.
    public var nearMiss: Double

    /// Creates a mix; the shares are normalised to their sum.
    public init(exact: Double, permutedQuery: Double, reorderedJSON: Double, nearMiss: Double) {
        self.exact = exact
        self.permutedQuery = permutedQuery
        self.reorderedJSON = reorderedJSON
        self.nearMiss = nearMiss
    }

    /// Mostly hits, a quarter of them permuted or reordered, and a few near-misses.
    public static let realistic = StreamMix(exact: 0.5, permutedQuery: 0.2, reorderedJSON: 0.2, nearMiss: 0.1)
    /// Hits only, in the realistic proportions: half exact, a quarter each permuted and reordered.
    public static let realisticHits = StreamMix(exact: 0.5, permutedQuery: 0.25, reorderedJSON: 0.25, nearMiss: 0)
    /// Hits only.
    public static let hitsOnly = StreamMix(exact: 1, permutedQuery: 0, reorderedJSON: 0, nearMiss: 0)
    /// Misses only.
    public static let missesOnly = StreamMix(exact: 0, permutedQuery: 0, reorderedJSON: 0, nearMiss: 1)
}
