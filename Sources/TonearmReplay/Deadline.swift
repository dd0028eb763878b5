/// The error ``withDeadline(_:_:)`` throws when its operation did not finish in time.
package struct DeadlineExceeded: Error, Sendable, Equatable {
    /// How long the operation was given.
    package var timeout: Duration

    package init(timeout: Duration) {
        self.timeout = timeout
    }
}

/// `operation`'s result, or ``DeadlineExceeded`` once `timeout` has passed, the operation then being
/// cancelled.
///
/// One deadline for the whole of an exchange, whatever it is made of: a client library's own timeout may
/// stop counting once the response head arrives (AsyncHTTPClient's does), so a body sent one byte at a
/// time would otherwise hold the exchange open for as long as the sender likes. Cancellation reaches
/// every `Task.sleep` and AsyncHTTPClient request inside `operation`; this returns once the operation has
/// stopped, so nothing it does outlives the deadline.
///
/// `sleep` waits out the deadline; a caller whose tasks run on threads of its own (the server's event
/// loops) passes a timer on those threads, so a busy global executor cannot make the deadline late.
package func withDeadline<Result: Sendable>(
    _ timeout: Duration,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await sleep(timeout)
            throw DeadlineExceeded(timeout: timeout)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded(timeout: timeout) }
        return first
    }
}
