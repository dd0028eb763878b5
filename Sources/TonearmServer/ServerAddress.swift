import Synchronization

/// `http://127.0.0.1:PORT` and the port, known once the server is bound: the URL rewriter, serve
/// events, health and the control plane's guard read them, while the listener that learns them starts
/// after they are made.
package final class ServerAddress: Sendable {
    private let value = Mutex((url: "", port: 0, httpsPort: Int?.none))

    /// The base URL, empty until bound.
    package var url: String {
        get { value.withLock { $0.url } }
        set { value.withLock { $0.url = newValue } }
    }

    /// The port listened on, 0 until bound.
    package var port: Int {
        get { value.withLock { $0.port } }
        set { value.withLock { $0.port = newValue } }
    }

    /// The HTTPS port listened on, `nil` without one.
    package var httpsPort: Int? {
        get { value.withLock { $0.httpsPort } }
        set { value.withLock { $0.httpsPort = newValue } }
    }
}
