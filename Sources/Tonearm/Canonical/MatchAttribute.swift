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

extension MatchAttribute {
    /// Reads an attribute as command lines and the key spec's vectors write it: `method`, `url`, `path`,
    /// `query`, `body` or `header:NAME`, the names of the canonical form's labels; `nil` for anything else.
    package init?(name: some StringProtocol) {
        switch String(name) {
        case CanonicalLabel.method.description: self = .method
        case CanonicalLabel.url.description: self = .url
        case CanonicalLabel.path.description: self = .path
        case CanonicalLabel.query.description: self = .query
        case "body": self = .body
        case let other:
            guard let header = CanonicalLabel.headerName(in: other), !header.isEmpty else { return nil }
            self = .header(header)
        }
    }
}
