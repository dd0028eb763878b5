import Synchronization

/// A client's request that the server stop (`POST /__admin/shutdown`, as WireMock's): made once, waited
/// for by the server, which then stops as for ``TonearmServer/stop()``, and by `tonearm serve`, which then
/// exits as for SIGTERM. Released too when the server stops for another reason, so no waiter outlives it.
package final class ShutdownRequest: Sendable {
    private struct State {
        var isReleased = false
        /// Why it was released: the request's route, or `nil` when the server stopped otherwise.
        var reason: String?
        var waiters: [CheckedContinuation<String?, Never>] = []
    }

    private let state = Mutex(State())

    /// Not asked for yet.
    package init() {}

    /// Asks for the stop, `reason` naming who asked; later requests change nothing.
    package func request(_ reason: String) {
        release(reason)
    }

    /// Releases the waiters without a request: the server is stopping anyway.
    package func release() {
        release(nil)
    }

    private func release(_ reason: String?) {
        let waiters = state.withLock { state -> [CheckedContinuation<String?, Never>] in
            guard !state.isReleased else { return [] }
            state.isReleased = true
            state.reason = reason
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: reason) }
    }

    /// Returns once released: who asked for the stop, or `nil` when the server stopped otherwise.
    package func wait() async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let released = state.withLock { state -> (Bool, String?) in
                guard !state.isReleased else { return (true, state.reason) }
                state.waiters.append(continuation)
                return (false, nil)
            }
            if released.0 { continuation.resume(returning: released.1) }
        }
    }
}
