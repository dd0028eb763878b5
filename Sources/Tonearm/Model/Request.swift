/// An HTTP request as Tonearm sees it: what was recorded in a track, or what a client sends live.
///
/// A plain value type with the body as bytes, so the core needs neither Foundation networking nor NIO.
/// Bridges convert from `URLRequest`, NIO or swift-http-types requests into this shape.
public struct Request: Sendable, Hashable {
    /// The method as sent, e.g. `GET`; matching uppercases it.
    public var method: String
    /// The absolute URL (`https://host/path?query`), or an origin-form target (`/path?query`) when the
    /// scheme and host are unknown, as on a local stub server.
    public var url: String
    /// Header fields in wire order.
    public var headers: [HeaderField]
    /// The body bytes; empty when there is none.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String = "GET", url: String, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Creates a request whose body is the UTF-8 encoding of `body`.
    public init(method: String = "GET", url: String, headers: [HeaderField] = [], body: String) {
        self.init(method: method, url: url, headers: headers, body: Array(body.utf8))
    }
}
