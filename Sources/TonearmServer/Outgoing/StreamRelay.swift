import NIOCore
import Synchronization

/// An upstream's streamed body relayed to the client as it arrives, while it is being recorded: the
/// upstream task pushes what it reads, the writer takes it as a ``BodyStreamSource``.
///
/// Memory is bounded by back-pressure, not by the stream's length: a push waits while more than
/// ``highWater`` bytes wait for the client, so a client that reads slowly slows the upstream read (and
/// one that stops reading stops it, until the upstream deadline ends the exchange). A client that leaves
/// stops the upstream exchange at once (``onStop``), and nothing is recorded; a stopping server stops it
/// the same way but asks for the stream to be recorded as far as it came (``cutRequested``), then ended.
final class StreamRelay: BodyStreamSource {
    /// The most bytes held for the client before the upstream read waits.
    static let highWater = 256 * 1024
    /// The most bytes one write takes.
    static let largestWrite = 64 * 1024

    private struct State {
        var pending: [UInt8] = []
        var ended = false
        var stopped = false
        var cutRequested = false
        /// The writer's wake-up, while it waits for bytes.
        var idleWake: (@Sendable () -> Void)?
        var wake: (@Sendable () -> Void)?
        /// The upstream task's push, while it waits for room.
        var room: CheckedContinuation<Void, any Error>?
        var onStop: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// What stops the upstream exchange when the client leaves or the server stops (cancels its task);
    /// called at once if either happened already.
    func onStop(_ stop: @escaping @Sendable () -> Void) {
        let stoppedAlready = state.withLock { state in
            state.onStop = stop
            return state.stopped || state.cutRequested
        }
        if stoppedAlready { stop() }
    }

    // MARK: The upstream side

    /// Whether the server's stopping ended the upstream exchange: what came is recorded, marked as cut.
    var cutRequested: Bool { state.withLock { $0.cutRequested } }

    /// Hands `bytes` to the client; waits while the client is ``highWater`` bytes behind. Throws
    /// `CancellationError` once the client has left.
    func push(_ bytes: [UInt8]) async throws {
        let wake = try state.withLock { state throws -> (@Sendable () -> Void)? in
            if state.stopped { throw CancellationError() }
            state.pending += bytes
            defer { state.idleWake = nil }
            return state.idleWake
        }
        wake?()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let resume = state.withLock { state -> Result<Void, any Error>? in
                if state.stopped { return .failure(CancellationError()) }
                if state.pending.count <= Self.highWater { return .success(()) }
                state.room = continuation
                return nil
            }
            if let resume { continuation.resume(with: resume) }
        }
    }

    /// The upstream's body is complete (or cut): the client gets what is pending, then the end.
    func finish() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.ended = true
            defer { state.idleWake = nil }
            return state.idleWake
        }
        wake?()
    }

    // MARK: The writer's side

    func attach(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    func next(now: NIODeadline) -> BodyStreamStep {
        let (step, room) = state.withLock { state -> (BodyStreamStep, CheckedContinuation<Void, any Error>?) in
            guard state.pending.isEmpty else {
                let count = min(state.pending.count, Self.largestWrite)
                let part = Array(state.pending[..<count])
                state.pending.removeFirst(count)
                var room: CheckedContinuation<Void, any Error>?
                if state.pending.count <= Self.highWater {
                    room = state.room
                    state.room = nil
                }
                return (.write(part), room)
            }
            if state.ended { return (.end, nil) }
            state.idleWake = state.wake
            return (.idle, nil)
        }
        room?.resume()
        return step
    }

    func stopped() {
        let (room, stop) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, (@Sendable () -> Void)?) in
            guard !state.stopped else { return (nil, nil) }
            state.stopped = true
            state.pending = []
            defer { state.room = nil }
            return (state.room, state.ended ? nil : state.onStop)
        }
        room?.resume(throwing: CancellationError())
        stop?()
    }

    func serverStopping() -> Bool {
        let (ends, stop) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            if state.stopped { return (false, nil) }
            if state.ended { return (true, nil) }
            state.cutRequested = true
            return (true, state.onStop)
        }
        stop?()
        return ends
    }
}
