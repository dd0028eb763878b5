/// A recorded or stubbed HTTP response.
public struct Response: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields in wire order, replayed exactly as recorded.
    public var headers: [HeaderField]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int = 200, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is the UTF-8 encoding of `body`.
    public init(status: Int = 200, headers: [HeaderField] = [], body: String) {
        self.init(status: status, headers: headers, body: Array(body.utf8))
    }
}
