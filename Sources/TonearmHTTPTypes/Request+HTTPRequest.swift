import HTTPTypes
import Tonearm

extension Request {
    /// `request` with `body`, as Tonearm matches and records it: the URL joined from the `:scheme`,
    /// `:authority` and `:path` pseudo-header fields (just the path when there is no authority).
    public init(_ request: HTTPRequest, body: [UInt8] = []) {
        let path = request.path ?? "/"
        let url = request.authority.map { "\(request.scheme ?? "https")://\($0)\(path)" } ?? path
        self.init(method: request.method.rawValue, url: url, headers: [HeaderField](request.headerFields), body: body)
    }
}

extension HTTPRequest {
    /// The head of `request` (its body travels separately in swift-http-types), with the URL split into
    /// `:scheme`, `:authority` and `:path`.
    ///
    /// - Throws: ``HTTPTypesConversionError`` for a method or header name that is not an HTTP token, or a
    ///   URL without `scheme://authority`.
    public init(_ request: Request) throws(HTTPTypesConversionError) {
        guard let method = HTTPRequest.Method(request.method) else { throw .invalidMethod(request.method) }
        guard let parts = Self.split(request.url) else { throw .invalidURL(request.url) }
        self.init(
            method: method, scheme: parts.scheme, authority: parts.authority, path: parts.path,
            headerFields: try HTTPFields(request.headers))
    }

    /// `https://host:8080/a?b` as (`https`, `host:8080`, `/a?b`); the fragment is dropped, as clients
    /// never send it.
    private static func split(_ url: String) -> (scheme: String, authority: String, path: String)? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let scheme = String(url[..<colon])
        let rest = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "#" }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        guard !scheme.isEmpty, !authority.isEmpty else { return nil }
        let remainder = rest[authorityEnd...]
        let path = remainder.first == "/" ? String(remainder) : "/" + remainder
        return (scheme, authority, path)
    }
}
