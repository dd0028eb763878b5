/// A part of a request that takes part in its key, in the spirit of Vinyl's `[.method, .url, .query, .body]`.
///
/// More parts of a request may join the key (cookies, single query parameters), so this is a struct with
/// static members rather than an enum: write `.method` or `.header("Accept")`, compare with `==`, and
/// read ``name`` and ``headerName``.
public struct MatchAttribute: Sendable, Hashable, CustomStringConvertible {
    /// Internal so the canonicalizer can read the parts exhaustively.
    enum Storage: Sendable, Hashable {
        case method, url, path, query, body
        case header(String)
    }

    let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// The method, uppercased.
    public static var method: MatchAttribute { MatchAttribute(.method) }
    /// Scheme, host, port and path, normalised per RFC 3986 (without the query).
    public static var url: MatchAttribute { MatchAttribute(.url) }
    /// Only the normalised path: for servers whose host and port change between runs.
    public static var path: MatchAttribute { MatchAttribute(.path) }
    /// The query parameters, canonical and sorted.
    public static var query: MatchAttribute { MatchAttribute(.query) }
    /// The body: RFC 8785 JSON, sorted form pairs, or raw bytes, by content type.
    public static var body: MatchAttribute { MatchAttribute(.body) }

    /// The values of one header, named case-insensitively.
    public static func header(_ name: String) -> MatchAttribute {
        MatchAttribute(.header(name))
    }

    /// The header this attribute names (as given), for ``header(_:)``; `nil` for the other attributes.
    public var headerName: String? {
        if case .header(let name) = storage { return name }
        return nil
    }

    /// The attribute as command lines write it: `method`, `url`, `path`, `query`, `body` or
    /// `header:NAME` (the name lowercased, as in the canonical form's labels).
    public var name: String {
        switch storage {
        case .method: CanonicalLabel.method.description
        case .url: CanonicalLabel.url.description
        case .path: CanonicalLabel.path.description
        case .query: CanonicalLabel.query.description
        case .body: "body"
        case .header(let name): CanonicalLabel.header(name.asciiLowercased)
        }
    }

    /// ``name``.
    public var description: String { name }
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
