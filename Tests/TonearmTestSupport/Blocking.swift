import Foundation

/// Runs blocking work (reading a socket, waiting for a process) on a thread of its own, for async tests.
///
/// Neither the cooperative pool nor Dispatch's global queue: on Linux the global queue starts with a
/// thread per core and adds about one a second while they are blocked, and `Task.sleep` wakes through
/// it. A few tests each waiting there for a slow socket held it for a minute, so every other test's
/// sleeps and waits, queued behind them, came a minute late (a 1 s deadline measured at 61 s).
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
