import Synchronization
import Tonearm

/// Tells the cassette stage which comes first for a fetch: a stream's head (answer the client now and
/// relay the body), or the end of the fetch (answer with its whole response, or its failure).
final class StreamHeadSignal: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<(Response, StreamRelay)?, Never>)
        case settled((Response, StreamRelay)?)
    }

    private let state = Mutex(State.pending)

    /// A stream's head arrived: its body goes to `relay`.
    func deliver(_ head: Response, relay: StreamRelay) {
        settle((head, relay))
    }

    /// The fetch ended (a whole response, or a failure), its stream recorded if it was one: the
    /// client's body ends now (after the recording, so a server stopping once the connection has closed
    /// saves it); no stream head comes after this.
    func fetchEnded() {
        let delivered = state.withLock { state -> StreamRelay? in
            if case .settled(let value?) = state { return value.1 }
            return nil
        }
        delivered?.finish()
        settle(nil)
    }

    /// The stream's head and relay, or `nil` once the fetch ended without one.
    func wait() async -> (Response, StreamRelay)? {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> (Response, StreamRelay)?? in
                switch state {
                case .settled(let value): return .some(value)
                case .pending, .waiting:
                    state = .waiting(continuation)
                    return .none
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    private func settle(_ value: (Response, StreamRelay)?) {
        let waiting = state.withLock { state -> CheckedContinuation<(Response, StreamRelay)?, Never>? in
            switch state {
            case .settled:
                return nil  // the first settles it
            case .pending:
                state = .settled(value)
                return nil
            case .waiting(let continuation):
                state = .settled(value)
                return continuation
            }
        }
        waiting?.resume(returning: value)
    }
}
