/// Which parts of a request make its key, and which volatile values are left out.
public struct MatchingConfiguration: Sendable, Hashable {
    /// The attributes that take part in the key. Default: method, URL, query and body.
    public var attributes: Set<MatchAttribute>
    /// Query (and form body) parameter names left out of the key, e.g. `timestamp`, `_`, `cacheBuster`.
    public var ignoredQueryParameters: Set<String>
    /// JSON body locations left out of the key, e.g. `/meta/requestId`.
    public var ignoredJSONFields: [JSONPointer]
    /// Extra media types to treat as JSON beyond `application/json` and `type/name+json` (see `MediaType`), lowercased.
    public var additionalJSONMediaTypes: Set<String>

    /// Creates a configuration.
    public init(
        attributes: Set<MatchAttribute> = .default,
        ignoredQueryParameters: Set<String> = [],
        ignoredJSONFields: [JSONPointer] = [],
        additionalJSONMediaTypes: Set<String> = []
    ) {
        self.attributes = attributes
        self.ignoredQueryParameters = ignoredQueryParameters
        self.ignoredJSONFields = ignoredJSONFields
        self.additionalJSONMediaTypes = additionalJSONMediaTypes
    }

    /// Method, URL, query and body, nothing ignored.
    public static var `default`: MatchingConfiguration { MatchingConfiguration() }

    /// The configured header names, lowercased and sorted, as they appear in the canonical form.
    var headerNames: [String] {
        attributes.compactMap { $0.headerName?.asciiLowercased }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
