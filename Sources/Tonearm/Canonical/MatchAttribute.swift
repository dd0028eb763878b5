/// A part of a request that takes part in its key, in the spirit of Vinyl's `[.method, .url, .query, .body]`.
public enum MatchAttribute: Sendable, Hashable {
    /// The method, uppercased.
    case method
    /// Scheme, host, port and path, normalised per RFC 3986 (without the query).
    case url
    /// Only the normalised path: for servers whose host and port change between runs.
    case path
    /// The query parameters, canonical and sorted.
    case query
    /// The body: RFC 8785 JSON, sorted form pairs, or raw bytes, by content type.
    case body
    /// The values of one header, named case-insensitively.
    case header(String)
}

extension Set where Element == MatchAttribute {
    /// Method, URL, query and body: the default, and what most recorders match on.
    public static var `default`: Set<MatchAttribute> { [.method, .url, .query, .body] }
}
