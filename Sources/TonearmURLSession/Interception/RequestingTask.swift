import Tonearm
import TonearmReplay

/// The task that made a request, kept so that a miss is reported in its context rather than on the
/// URLSession thread that answers.
///
/// Why: Swift Testing attributes an issue to the test, and `withKnownIssue` absorbs it, through
/// task-local values of the task that records it. URLSession answers on its own threads, where those
/// values are absent, so a miss recorded there (or after the test body returns) escapes both. A task
/// created while the request is being made inherits the requester's task-locals; it waits for a miss and
/// records it there, and the request fails only once that is done.
///
/// swift-corelibs-foundation creates the protocol instance inside `resume()`, on the requesting task, so
/// the capture happens there. Where a protocol is created elsewhere (off any task), nothing is captured and
/// the miss is reported when the scope ends instead (`ReplaySession.takeUnreportedMisses()`).
final class RequestingTask: Sendable {
    /// The session whose scope was current when the request was made.
    let session: ReplaySession
    private let misses: AsyncStream<PendingReport>.Continuation

    private struct PendingReport: Sendable {
        var miss: SessionMiss
        var reported: CheckedContinuation<Void, Never>
    }

    private init(session: ReplaySession, reporter: @escaping @Sendable (SessionMiss) -> Void) {
        self.session = session
        let (stream, continuation) = AsyncStream.makeStream(of: PendingReport.self)
        misses = continuation
        // Inherits the current task's task-locals (the test, any `withKnownIssue`); ends when `misses`
        // finishes, at the latest when this object is released with its protocol instance.
        Task {
            for await pending in stream {
                reporter(pending.miss)
                pending.reported.resume()
            }
        }
    }

    deinit {
        misses.finish()
    }

    /// The requesting task of the scope current on this task, when that scope reports misses in the
    /// requesting task and its session can miss; `nil` elsewhere (no task, no scope), which costs nothing.
    static func capture() -> RequestingTask? {
        guard let session = ReplaySession.current, session.mode.canMiss,
            let reporter = session.inTaskMissReporter
        else { return nil }
        return RequestingTask(session: session, reporter: reporter)
    }

    /// Reports `miss` in the requesting task's context and returns once it has been recorded.
    func report(_ miss: SessionMiss) async {
        await withCheckedContinuation { reported in
            if case .terminated = misses.yield(PendingReport(miss: miss, reported: reported)) { reported.resume() }
        }
    }
}
