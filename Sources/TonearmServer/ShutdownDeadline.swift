import NIOCore
import Tonearm

/// Sent through the pipeline of every connection still open when ``ServerConfiguration/Limits/shutdownTimeout``
/// has passed: the exchange it is answering is cancelled.
struct ShutdownDeadlinePassed: Sendable {}

/// How ``TonearmServer/stop()`` keeps to its deadline: in-flight exchanges get
/// ``ServerConfiguration/Limits/shutdownTimeout`` to finish, then are cancelled and answered 503, and a
/// connection that still does not close (a client not reading its answer) is closed a moment later.
enum ShutdownDeadline {
    /// How long cancelled exchanges get to write their 503 before their connections are closed.
    static let cancellationGrace: Duration = .seconds(1)

    /// Waits until every connection in `open` has closed, cancelling what is still in flight once
    /// `timeout` has passed. Returns within `timeout` plus twice ``cancellationGrace``.
    static func closeAll(_ open: [any Channel], within timeout: Duration) async {
        var busy = await waitForClose(of: open, within: timeout)
        guard !busy.isEmpty else { return }
        for channel in busy { channel.pipeline.fireUserInboundEventTriggered(ShutdownDeadlinePassed()) }
        busy = await waitForClose(of: busy, within: cancellationGrace)
        guard !busy.isEmpty else { return }
        for channel in busy { channel.close(promise: nil) }
        _ = await waitForClose(of: busy, within: cancellationGrace)
    }

    /// Waits until every one of `channels` has closed or `timeout` has passed; returns those still open.
    private static func waitForClose(of channels: [any Channel], within timeout: Duration) async -> [any Channel] {
        guard let loop = channels.first?.eventLoop else { return [] }
        let settled = loop.makePromise(of: Void.self)
        EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: loop).cascade(to: settled)
        // Whichever comes first completes `settled`; NIO ignores the second completion.
        let timer = loop.scheduleTask(in: .nanoseconds(TonearmServer.nanoseconds(timeout))) { settled.succeed() }
        try? await settled.futureResult.get()
        timer.cancel()
        return channels.filter(\.isActive)
    }
}
