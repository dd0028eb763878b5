import Synchronization
import Tonearm

/// What an upstream's stream has sent so far, for the recording: its head, its body, and when each part
/// arrived after the head. Kept outside the fetch's deadline, so a stream cut by the deadline is still
/// recorded up to the cut, marked.
final class StreamCapture: Sendable {
    private struct State {
        var head: Response?
        var relay: StreamRelay?
        var began = ContinuousClock.now
        var body: [UInt8] = []
        var parts: [BodyPacing.Part] = []
    }

    private let state = Mutex(State())

    /// The response header that marks a stream recorded only up to a limit, saying which.
    static let cutField = "Tonearm-Stream-Cut"

    /// Whether the head has arrived (the stream is being relayed).
    var hasBegun: Bool { state.withLock { $0.head != nil } }

    /// Whether the server's stopping ended the exchange (``StreamRelay/cutRequested``): what came is
    /// recorded, though the exchange's task was cancelled.
    var cutByServerStopping: Bool { state.withLock { $0.relay?.cutRequested ?? false } }

    /// The head arrived now; its body goes to `relay` as it comes.
    func begin(_ head: Response, relay: StreamRelay) {
        state.withLock { state in
            state.head = head
            state.relay = relay
            state.began = .now
        }
    }

    /// Keeps `bytes`, arrived now; `false` (nothing kept) when the body would pass `limit` bytes.
    func append(_ bytes: [UInt8], limit: Int) -> Bool {
        state.withLock { state in
            guard bytes.count <= limit - state.body.count else { return false }
            state.body += bytes
            state.parts.append(BodyPacing.Part(offset: .now - state.began, byteCount: bytes.count))
            return true
        }
    }

    /// The whole stream, once its body has ended. (The client's body ends once it is recorded:
    /// ``StreamRelay/finish()``, called by whoever records it.)
    func complete() -> (response: Response, pacing: BodyPacing?) {
        recorded(cut: nil)
    }

    /// The stream as far as it came, marked as cut for `reason`.
    func cut(because reason: String) -> (response: Response, pacing: BodyPacing?) {
        recorded(cut: reason)
    }

    private func recorded(cut reason: String?) -> (response: Response, pacing: BodyPacing?) {
        let (response, parts) = state.withLock { state in
            var response = state.head ?? Response(status: 502)
            response.body = state.body
            if let reason { response.headers.append(HeaderField(Self.cutField, reason)) }
            return (response, state.parts)
        }
        let pacing = BodyPacing(parts: parts)
        return (response, Self.keepsPacing(pacing, of: response) ? pacing : nil)
    }

    /// Whether a recording keeps `pacing`: for Server-Sent Events whenever the body came in parts or
    /// after the head, for any other body only when it took at least ``pacedSpan`` (a chunked JSON
    /// answer whose parts came milliseconds apart is an ordinary answer, and its times would only make
    /// every re-recording differ).
    static func keepsPacing(_ pacing: BodyPacing, of response: Response) -> Bool {
        guard !pacing.parts.isEmpty else { return false }
        if MediaType.isEventStream(response.headers.first(named: "Content-Type")) {
            return pacing.parts.count > 1 || pacing.duration >= .milliseconds(1)
        }
        return pacing.duration >= pacedSpan
    }

    /// How long a body other than Server-Sent Events must take to arrive for its pacing to be kept.
    static let pacedSpan = Duration.milliseconds(100)
}
