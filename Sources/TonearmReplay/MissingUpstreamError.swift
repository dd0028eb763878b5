/// A request had to go to the network (a miss in a recording mode, or passthrough) but the bridge was
/// made without the client or transport that reaches it.
public struct MissingUpstreamError: Error, Sendable, CustomStringConvertible {
    /// The request's method.
    public var method: String
    /// The request's URL.
    public var url: String
    /// The bridge that had no upstream, e.g. `TonearmHTTPClient`.
    public var bridge: String

    /// Names the request, the bridge and what to pass.
    public init(method: String, url: String, bridge: String) {
        self.method = method
        self.url = url
        self.bridge = bridge
    }

    /// Names the request and how to fix it.
    public var description: String {
        "Tonearm: \(method) \(url) must reach the network in this record mode, but the \(bridge) was made without an upstream (pass upstream:)"
    }
}
