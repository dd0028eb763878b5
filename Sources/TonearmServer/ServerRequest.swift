import Tonearm

/// A request as it arrived on a connection, body complete.
struct ServerRequest: Sendable {
    var method: String
    /// The request-line target: origin form (`/host/path?q`) or absolute form (`http://host/path`).
    var target: String
    var headers: [HeaderField]
    var body: [UInt8]
}
