/// A backend the server may reach: a scheme and an authority (`host` or `host:port`).
///
/// With the host in the first path component, `http://127.0.0.1:PORT/dev.api1.com/v1/x` stands for
/// `https://dev.api1.com/v1/x`; the component is the authority exactly as written here.
public struct UpstreamHost: Sendable, Hashable, CustomStringConvertible {
    /// `https` or `http`.
    public var scheme: String
    /// The host, with `:port` when one was given, lowercased (e.g. `api.example.com`, `127.0.0.1:9000`).
    public var authority: String

    /// A host from a `--host` value: `api.example.com` (HTTPS), or `http://127.0.0.1:9000` with its
    /// scheme and port; a trailing slash is ignored. `nil` when the value is not a bare scheme and authority.
    public init?(_ text: String) {
        var rest = Substring(text)
        var scheme = "https"
        if let separator = rest.range(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            rest = rest[separator.upperBound...]
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        guard scheme == "http" || scheme == "https", !rest.isEmpty,
            !rest.contains(where: { "/?#@ ".contains($0) })
        else { return nil }
        self.scheme = scheme
        authority = rest.lowercased()
    }

    /// A host from a `--host` value, or an error saying what is expected.
    public init(parsing text: String) throws(ServerError) {
        guard let host = UpstreamHost(text) else {
            throw .invalid(what: "host", value: text, expected: "a host such as api.example.com, or a scheme and authority such as http://127.0.0.1:9000 (no path)")
        }
        self = host
    }

    /// The host of an absolute `http(s)` URL, or `nil`.
    public init?(ofURL url: String) {
        guard let separator = url.range(of: "://") else { return nil }
        let afterScheme = url[separator.upperBound...]
        let end = afterScheme.firstIndex(where: { "/?#".contains($0) }) ?? afterScheme.endIndex
        self.init(String(url[..<separator.upperBound]) + afterScheme[..<end])
    }

    /// `scheme://authority`, with no trailing slash.
    public var origin: String { "\(scheme)://\(authority)" }

    /// The origin, as given on the command line.
    public var description: String { origin }

    /// The `https` host of a `CONNECT` target (`host:port`, `[v6]:port`); port 443 is left out, as it is
    /// from the `https://` URLs the tunnel's requests are given. `nil` when the target is not host:port.
    init?(connectTarget target: String) {
        self.init(connectTarget: target, scheme: "https")
    }

    /// The host of a `CONNECT` target with `scheme` (`http` for a plain tunnel, a client's `ws://` through
    /// a proxy); the scheme's default port is left out.
    init?(connectTarget target: String, scheme: String) {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
            (1...65535).contains(port), colon > target.startIndex
        else { return nil }
        let name = target[..<colon]
        let defaultPort = scheme == "https" ? 443 : 80
        self.init(port == defaultPort ? "\(scheme)://\(name)" : "\(scheme)://\(name):\(port)")
    }

    /// The host name without port or IPv6 brackets, as a certificate names it.
    var hostName: String {
        var name = Substring(authority)
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") { return String(name[name.index(after: name.startIndex)..<close]) }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        return String(name)
    }
}
