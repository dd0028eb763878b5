import Tonearm

/// One request the session handled and where its answer came from, for passthrough logs and debugging.
public struct LoggedExchange: Sendable, CustomStringConvertible {
    /// Where an answer came from: a growable set (more sources may come), so a struct with static
    /// members rather than an enum (docs/public-api.md); read it with ``rawValue`` or `==`.
    public struct Source: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// `replayed`, `network` or `missed`, as logs print it.
        public let rawValue: String

        /// A source by its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A recorded track, stub or rule.
        public static let replayed = Source(rawValue: "replayed")
        /// The real network (record and passthrough modes).
        public static let network = Source(rawValue: "network")
        /// Nothing answered (a miss in `never` mode).
        public static let missed = Source(rawValue: "missed")

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The request as sent.
    public var request: Request
    /// Where the answer came from.
    public var source: Source
    /// The response status, when there was a response.
    public var status: Int?
    /// The response, when there was one (what a test's report attaches as HAR).
    public var response: Response?
    /// The failure, when the answer was a (simulated or real) transport error or a miss.
    public var failure: String?

    /// `GET https://… → 200 (network)`.
    public var description: String {
        let result = status.map(String.init) ?? failure ?? "no response"
        return "\(request.method) \(request.url) → \(result) (\(source.rawValue))"
    }
}
