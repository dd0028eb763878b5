/// A response header whose values differ: added, removed, or with other values.
///
/// Names compare without case and a header sent several times (`Set-Cookie`) is compared as its list of
/// values in order, so both lists are given whole.
public struct HeaderChange: Sendable, Hashable {
    /// The name, lowercased.
    public var name: String
    /// The values in the old response, in order; empty when the header was added.
    public var old: [String]
    /// The values in the new response, in order; empty when the header was removed.
    public var new: [String]

    /// Creates a header change.
    public init(name: String, old: [String], new: [String]) {
        self.name = name
        self.old = old
        self.new = new
    }
}
