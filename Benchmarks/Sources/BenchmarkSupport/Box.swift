/// A mutable value shared across a benchmark's iterations: the tool hands the setup's result to every
/// iteration by value, and a stream's position must carry over from one iteration to the next.
public final class Box<Value> {
    /// The value.
    public var value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        self.value = value
    }
}
