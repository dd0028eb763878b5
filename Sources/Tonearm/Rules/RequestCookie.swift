/// One `name=value` pair of a `Cookie` header (RFC 6265 section 4.2), as servlet containers read it:
/// pairs split at `;`, white space around names and values dropped, and a value in double quotes
/// unquoted (`s="a b"` is `a b`).
struct RequestCookie: Sendable, Equatable {
    let name: String
    let value: String

    /// The pairs in one `Cookie` header value; a part without `=` is not a cookie and is skipped.
    static func parse(_ header: String) -> [RequestCookie] {
        var cookies: [RequestCookie] = []
        for part in header.split(separator: ";") {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = String(part[..<equals]).trimmingHTTPWhitespace
            guard !name.isEmpty else { continue }
            var value = Substring(String(part[part.index(after: equals)...]).trimmingHTTPWhitespace)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            cookies.append(RequestCookie(name: name, value: String(value)))
        }
        return cookies
    }
}
