import Dispatch
import Synchronization
import TonearmCassettes

/// The server's lines on standard error, written on a queue of their own so a connection never waits
/// for whoever reads them.
///
/// Misses are logged while a request is answered on its event loop. A test harness that launches the
/// server with a pipe it never reads fills that pipe after 64 KiB, and a direct write would then block
/// the event loop, and every connection on it, for good. Here lines wait on the queue instead; past
/// ``limit`` waiting lines, new ones are dropped and counted, and the count is written before the next
/// line that gets through. A reader that went away costs nothing (``StandardStream`` drops the line).
final class StandardErrorLog: Sendable {
    /// The process's one log: every server in the process shares standard error.
    static let shared = StandardErrorLog(stream: .error)

    /// The most lines waiting to be written before new ones are dropped.
    let limit: Int
    private let stream: StandardStream
    private let queue = DispatchQueue(label: "tonearm.server.standard-error")
    private let waiting = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    init(stream: StandardStream, limit: Int = 10_000) {
        self.stream = stream
        self.limit = limit
    }

    /// Queues `line`, or drops it when ``limit`` lines are already waiting.
    func write(_ line: String) {
        guard waiting.add(1, ordering: .relaxed).newValue <= limit else {
            waiting.subtract(1, ordering: .relaxed)
            dropped.add(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            let lost = dropped.exchange(0, ordering: .relaxed)
            if lost > 0 { stream.writeLine("tonearm: \(lost) log lines dropped: standard error was not being read") }
            stream.writeLine(line)
            waiting.subtract(1, ordering: .relaxed)
        }
    }

    /// Waits until the lines queued so far are written, or `timeout` passes (a reader that stopped
    /// reading must not keep a stopping server from exiting).
    func flush(timeout: Duration) {
        let written = DispatchSemaphore(value: 0)
        queue.async { written.signal() }
        let nanoseconds = Int(TonearmServer.nanoseconds(timeout))
        _ = written.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }
}
