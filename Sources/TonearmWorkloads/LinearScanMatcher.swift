import Foundation
import Tonearm

/// A yardstick, not a matcher to use: finds a recorded track the way Vinyl, DVR and Replay do, by
/// scanning every track and comparing it field by field with Foundation.
///
/// For each stored track, in recording order, it compares the method, then scheme, host, port and path,
/// then the query items as a set, then the body — JSON bodies parsed with `JSONSerialization` on both
/// sides and compared structurally, any other body byte for byte — and stops at the first track where all
/// agree. Like those tools it keeps recorded requests as `URL` and `Data` (what a decoded cassette holds)
/// and parses URL components and JSON again at every comparison, so a match costs time proportional to
/// the number of tracks. Tonearm's benchmarks report their ratios against this matcher at the same N, in
/// the same run.
public struct LinearScanMatcher: Sendable {
    /// A request as those tools hold it: parsed once into Foundation types when the cassette is read.
    struct StoredRequest: Sendable {
        var method: String
        var url: URL?
        var isJSON: Bool
        var body: Data
    }

    private let stored: [StoredRequest]

    /// A matcher over `tracks`, in recording order.
    public init(tracks: [Track]) {
        stored = tracks.map { Self.stored($0.request) }
    }

    /// The number of tracks scanned on a miss.
    public var trackCount: Int { stored.count }

    /// The position of the first track whose request matches `request`, or `nil` after scanning all.
    public func firstMatch(for request: Request) -> Int? {
        let received = Self.stored(request)
        return stored.firstIndex { Self.matches(recorded: $0, received: received) }
    }

    /// Whether two requests match under the rules above: method, URL without query, query as a set, body.
    public static func matches(recorded: Request, received: Request) -> Bool {
        matches(recorded: stored(recorded), received: stored(received))
    }

    static func stored(_ request: Request) -> StoredRequest {
        let contentType = request.headers.first(named: "Content-Type")?.lowercased() ?? ""
        return StoredRequest(
            method: request.method, url: URL(string: request.url),
            isJSON: contentType.hasPrefix("application/json") || contentType.contains("+json"),
            body: Data(request.body))
    }

    static func matches(recorded: StoredRequest, received: StoredRequest) -> Bool {
        guard recorded.method.caseInsensitiveCompare(received.method) == .orderedSame else { return false }
        guard let recordedURL = recorded.url, let receivedURL = received.url,
            let left = URLComponents(url: recordedURL, resolvingAgainstBaseURL: false),
            let right = URLComponents(url: receivedURL, resolvingAgainstBaseURL: false)
        else { return recorded.url == received.url && recorded.body == received.body }
        guard left.scheme?.lowercased() == right.scheme?.lowercased(),
            left.host?.lowercased() == right.host?.lowercased(),
            left.port == right.port, left.path == right.path
        else { return false }
        guard Set(left.queryItems ?? []) == Set(right.queryItems ?? []) else { return false }
        return bodiesMatch(recorded, received)
    }

    private static func bodiesMatch(_ recorded: StoredRequest, _ received: StoredRequest) -> Bool {
        if recorded.isJSON, received.isJSON, !recorded.body.isEmpty, !received.body.isEmpty,
            let left = try? JSONSerialization.jsonObject(with: recorded.body, options: [.fragmentsAllowed]),
            let right = try? JSONSerialization.jsonObject(with: received.body, options: [.fragmentsAllowed])
        {
            return JSONStructure.equal(left, right)
        }
        return recorded.body == received.body
    }
}
