// Stand-ins for another HTTP library's types (a networking client's `Request`, swift-http-types'
// `HTTPField`), so a test can import this module beside Tonearm and check that users who import both
// can still name Tonearm's types.

/// Another library's request type, named like Tonearm's.
public struct Request: Sendable, Hashable {
    /// The request path.
    public var path: String

    /// Creates a request for `path`.
    public init(path: String) {
        self.path = path
    }
}

/// swift-http-types' field type, by name: Tonearm's header field is `HeaderField`, so the two never clash.
public struct HTTPField: Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
