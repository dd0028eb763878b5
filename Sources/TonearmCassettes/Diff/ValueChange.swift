/// One value as the old cassette has it and as the new one has it.
public struct ValueChange<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The old cassette's value.
    public var old: Value
    /// The new cassette's value.
    public var new: Value

    /// Creates a change.
    public init(old: Value, new: Value) {
        self.old = old
        self.new = new
    }
}
