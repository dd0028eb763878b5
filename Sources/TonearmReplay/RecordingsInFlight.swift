import Synchronization
import Tonearm

/// The network fetches a recording session has under way, by request key, so that identical requests
/// missing at the same moment are recorded once rather than once each.
///
/// An app often fires the same request from two places at once (a configuration fetch, a thumbnail).
/// Without this, every copy that arrives before the first answer is recorded goes to the network and
/// is recorded: the cassette gets duplicates, and under ``Strategy/fifo(whenExhausted:)`` replays answer
/// differently from the recording. With it, the first request to miss *leads*: it fetches and records.
/// The others *follow*: they wait for it and are then decided again, as if they had arrived just after
/// it, so whatever the strategy does with a repeated request happens (``Strategy/repeat`` replays the
/// new track; ``Strategy/uniquePlay`` sends them to the network, where they no longer wait).
final class RecordingsInFlight: Sendable {
    /// What a request that missed does about it.
    enum Role {
        /// Fetch and record, then call ``RecordingsInFlight/finish(_:outcome:)``.
        case lead(RequestKey)
        /// Wait for the fetch under way with ``Fetch/outcome()``.
        case follow(Fetch)
    }

    /// One fetch under way, and the requests waiting for it.
    final class Fetch: Sendable {
        private enum State {
            case running(waiters: [CheckedContinuation<Outcome, Never>])
            case finished(Outcome)
        }

        private let state = Mutex(State.running(waiters: []))

        /// How the leading request's fetch ended once it is over.
        func outcome() async -> Outcome {
            await withCheckedContinuation { continuation in
                let finished: Outcome? = state.withLock { state in
                    switch state {
                    case .running(var waiters):
                        waiters.append(continuation)
                        state = .running(waiters: waiters)
                        return nil
                    case .finished(let outcome):
                        return outcome
                    }
                }
                if let finished { continuation.resume(returning: finished) }
            }
        }

        fileprivate func finish(_ outcome: Outcome) {
            let waiters = state.withLock { state in
                guard case .running(let waiters) = state else { return [CheckedContinuation<Outcome, Never>]() }
                state = .finished(outcome)
                return waiters
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
        }
    }

    /// How a leading request's fetch ended.
    enum Outcome: Sendable {
        /// Fetched and recorded: the engine holds the new track, so decide again.
        case recorded
        /// The fetch failed (the upstream is down, say): the followers fail the same way rather than
        /// queue up to fail one after another.
        case failed(any Error)
        /// The leading request went away (its task was cancelled): decide again, and one of the
        /// followers leads.
        case abandoned
    }

    private let fetches = Mutex<[RequestKey: Fetch]>([:])

    /// Leads the fetch for `key` when none is under way, else follows the one that is.
    func join(_ key: RequestKey) -> Role {
        fetches.withLock { fetches in
            if let fetch = fetches[key] { return .follow(fetch) }
            fetches[key] = Fetch()
            return .lead(key)
        }
    }

    /// Ends the fetch `key` leads, waking its followers with `outcome`. Call it after the recorded track
    /// is in the engine, so a request arriving from now on finds the track rather than no fetch.
    func finish(_ key: RequestKey, outcome: Outcome) {
        let fetch = fetches.withLock { $0.removeValue(forKey: key) }
        fetch?.finish(outcome)
    }
}
