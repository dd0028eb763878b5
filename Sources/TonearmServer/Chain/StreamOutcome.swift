import Synchronization
import Tonearm

/// What a streamed exchange turned out to be once it ended, handed from whoever saw it end (the fetch
/// recording a relayed stream, the relay or the replay of a WebSocket) to whoever journaled its head
/// (``AnswerFinisher``): the journal entry made when the head went out is completed with it, and the
/// inspector shows the stream as it was.
///
/// Either side may come first (a stream can end before its head is journaled); the value is delivered
/// once, and a second end is ignored.
package final class StreamOutcome: Sendable {
    /// What the stream was.
    enum Value: Sendable {
        /// A relayed response's whole body as recorded, and how it arrived.
        case body(Response, BodyPacing?)
        /// A WebSocket's conversation: recorded from the upstream, or what a replay exchanged; the
        /// number of messages left out of it (a replay keeps a bounded transcript).
        case webSocket(WebSocketConversation, leftOut: Int)
    }

    private enum State {
        case open
        case ended(Value)
        case awaited(@Sendable (Value) -> Void)
        case delivered
    }

    private let state = Mutex(State.open)

    init() {}

    /// The stream ended as `value`: given to the waiting receiver now, or kept for it.
    func end(_ value: Value) {
        let receiver = state.withLock { state -> (@Sendable (Value) -> Void)? in
            switch state {
            case .open:
                state = .ended(value)
                return nil
            case .awaited(let receiver):
                state = .delivered
                return receiver
            case .ended, .delivered:
                return nil
            }
        }
        receiver?(value)
    }

    /// Calls `receiver` with the stream's value once it has ended (now, when it has).
    func whenEnded(_ receiver: @escaping @Sendable (Value) -> Void) {
        let ended = state.withLock { state -> Value? in
            switch state {
            case .open:
                state = .awaited(receiver)
                return nil
            case .ended(let value):
                state = .delivered
                return value
            case .awaited, .delivered:
                return nil
            }
        }
        if let ended { receiver(ended) }
    }
}
