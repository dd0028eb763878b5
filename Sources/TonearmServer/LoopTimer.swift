import NIOCore

/// Waits on an event loop's timer rather than `Task.sleep`.
///
/// On Linux `Task.sleep` is woken through Dispatch's global queue, which starts with a thread per core
/// and adds about one a second while they are blocked. Anything in the process blocking there (NIO's
/// `getaddrinfo` for a slow DNS name, a host application's own work) made a one-second track delay or
/// upstream deadline fire many seconds late (measured: 5.8 s for a 1 s sleep with the queue held). The
/// server's tasks already run on their connection's event loop (``EventLoopExecutor``); with this their
/// timers do too, so no wait in the request path depends on threads the server does not own.
struct LoopTimer: Sendable {
    let group: any EventLoopGroup

    /// Returns once `duration` has passed; throws as soon as the calling task is cancelled.
    func sleep(for duration: Duration) async throws {
        // `any()` is the calling thread's own loop when the task runs on one, so nothing hops threads.
        let scheduled = group.any().scheduleTask(in: .nanoseconds(TonearmServer.nanoseconds(duration))) {}
        try await withTaskCancellationHandler {
            try await scheduled.futureResult.get()
        } onCancel: {
            scheduled.cancel()
        }
    }
}
