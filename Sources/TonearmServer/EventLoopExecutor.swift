import NIOCore

/// Runs a connection's Swift tasks on its channel's event loop rather than the cooperative pool.
///
/// Two reasons: the connection's reads and writes happen on that loop anyway, so no job hops threads;
/// and a process whose cooperative threads are all busy (a test runner with CPU-bound or blocking tests
/// beside the server) cannot starve the server. The jobs are short: matching, a few writes; delays are
/// timers, never sleeps on the thread.
final class EventLoopExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
