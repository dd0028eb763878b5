import Synchronization

/// `http://127.0.0.1:PORT`, known once the server is bound: the URL rewriter, serve events and health
/// read it, while the listener that learns it starts after they are made.
final class ServerAddress: Sendable {
    private let value = Mutex("")

    /// The base URL, empty until bound.
    var url: String {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
