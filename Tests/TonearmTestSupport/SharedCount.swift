import Synchronization

/// A count (or flag) the threads of a test share: an `Atomic` in a class, as an escaping closure
/// cannot capture one directly.
public final class SharedCount: Sendable {
    public let value = Atomic<Int>(0)

    public init() {}
}
