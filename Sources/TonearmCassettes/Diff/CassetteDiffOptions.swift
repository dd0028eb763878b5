import Tonearm

/// What a ``CassetteDiff`` pairs tracks by and what it leaves out as volatile.
///
/// Re-recording changes things that say nothing about the service: the clock, per-exchange ids, rate
/// limit counters. A diff that showed them would bury the one change that matters, so they are left
/// out: the headers in ``ignoredHeaders`` and the JSON body locations in ``ignoredJSONFields`` and in
/// the matching configuration's `MatchingConfiguration/ignoredJSONFields`. Each recorded time
/// (``CassetteEntry/recordedAt``), track name and hint is left out too: none of them changes what a
/// replay answers.
public struct CassetteDiffOptions: Sendable, Hashable {
    /// The configuration keys are made under; `nil` takes the new cassette's, or the old one's when the
    /// new one's is the default (its format implies nothing).
    public var configuration: MatchingConfiguration?
    /// Header names (any case) left out of the response comparison, and out of the key when the
    /// configuration keys on them. Defaults to ``defaultIgnoredHeaders``.
    public var ignoredHeaders: Set<String>
    /// JSON body locations left out of the response comparison and out of request keys, on top of the
    /// configuration's own.
    public var ignoredJSONFields: [JSONPointer]
    /// The redaction the new cassette should have had: a credential it names that is still in the new
    /// cassette is flagged (``DiffFlag/Kind/unredactedSecret``).
    public var redaction: Redaction
    /// The strategy the new cassette is replayed with, which decides whether a key recorded several
    /// times is a sequence or a shadowed duplicate; `nil` takes the new cassette's hint, else repeat.
    public var strategy: StrategyHint?

    /// Headers whose values change with every exchange while the resource stays the same, lowercased:
    /// - the clock: `date`, `age`, `expires` (a date computed from the clock and `max-age`, which is
    ///   compared as part of `cache-control`);
    /// - per-exchange identifiers: `x-request-id`, `request-id`, `x-correlation-id`, `x-amzn-requestid`,
    ///   `x-amz-request-id`, `x-amz-id-2`, `x-amzn-trace-id`, `x-amz-cf-id`, `cf-ray`, `x-cloud-trace-context`;
    /// - timings: `x-runtime`, `x-response-time`, `server-timing`;
    /// - rate-limit counters: `x-ratelimit-remaining`, `x-ratelimit-reset`, `ratelimit-remaining`,
    ///   `ratelimit-reset` (the limits themselves are compared);
    /// - `content-length`, which follows the body: the body is compared itself, and an ignored JSON
    ///   field of another length would otherwise change it.
    ///
    /// Deliberately compared: `last-modified` and `etag` (they change when the resource does),
    /// `set-cookie` (a new cookie is new behaviour; Tonearm redacts its value when recording, so it
    /// does not churn) and `cache-control`.
    public static let defaultIgnoredHeaders: Set<String> = [
        "date", "age", "expires",
        "x-request-id", "request-id", "x-correlation-id", "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2",
        "x-amzn-trace-id", "x-amz-cf-id", "cf-ray", "x-cloud-trace-context",
        "x-runtime", "x-response-time", "server-timing",
        "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-remaining", "ratelimit-reset",
        "content-length",
    ]

    /// Creates options; by default the cassettes' own configuration, the ``defaultIgnoredHeaders``, no
    /// extra JSON fields, the default redaction and the new cassette's strategy hint.
    public init(
        configuration: MatchingConfiguration? = nil, ignoredHeaders: Set<String> = CassetteDiffOptions.defaultIgnoredHeaders,
        ignoredJSONFields: [JSONPointer] = [], redaction: Redaction = .default, strategy: StrategyHint? = nil
    ) {
        self.configuration = configuration
        self.ignoredHeaders = Set(ignoredHeaders.map { $0.lowercased() })
        self.ignoredJSONFields = ignoredJSONFields
        self.redaction = redaction
        self.strategy = strategy
    }

    /// The configuration keys are made under for `old` and `new`: the chosen one, without the ignored
    /// headers and with the ignored JSON fields added.
    func effectiveConfiguration(old: MatchingConfiguration, new: MatchingConfiguration) -> MatchingConfiguration {
        var chosen = configuration ?? (new != .default ? new : old)
        chosen.attributes = chosen.attributes.filter { attribute in
            guard let header = attribute.headerName else { return true }
            return !ignores(header: header)
        }
        for pointer in ignoredJSONFields where !chosen.ignoredJSONFields.contains(pointer) {
            chosen.ignoredJSONFields.append(pointer)
        }
        return chosen
    }

    /// Whether the header `name` is left out; both sides compared without case, whatever case the set
    /// was given in after ``init(configuration:ignoredHeaders:ignoredJSONFields:redaction:strategy:)``.
    func ignores(header name: String) -> Bool {
        ignoredHeaders.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
