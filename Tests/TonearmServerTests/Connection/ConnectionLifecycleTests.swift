import NIOCore
import NIOHTTP1
import Testing
@testable import TonearmServer

/// When a connection closes, decided by ``ConnectionLifecycle`` alone: every event is given its time by
/// the test, so deadlines, body rates and shedding are checked to the nanosecond, on any machine, without
/// waiting for one.
@Suite("Server: a connection's lifecycle (head deadline, body rate, idle, stopping, shedding)")
struct ConnectionLifecycleTests {
    /// 10 s for a head, at least 1,000 bytes/s over a 2 s window.
    private static let limits = ConnectionLifecycle.Limits(
        headerTimeout: .seconds(10), bodyRateWindow: .seconds(2), minimumBodyBytesPerSecond: 1_000)
    private static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    private static func at(_ seconds: Double) -> NIODeadline {
        start + .nanoseconds(Int64(seconds * 1e9))
    }

    /// A connection that sent a whole request at `time` (head and end in one read).
    private static func oneRequest(at time: Double, on lifecycle: inout ConnectionLifecycle) {
        _ = lifecycle.headReceived(version: .http1_1)
        _ = lifecycle.requestEnded()
        lifecycle.readCompleted(now: at(time))
    }

    @Test("A head that does not arrive within the head deadline of accept is answered 408; not a nanosecond before")
    func headDeadlineFromAccept() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        #expect(lifecycle.phase == .awaitingHead)
        #expect(lifecycle.deadline == Self.at(10))
        let justBefore = lifecycle.deadlinePassed(now: Self.at(10) - .nanoseconds(1), isWritable: true)
        #expect(justBefore == .none)
        let action = lifecycle.deadlinePassed(now: Self.at(10), isWritable: true)
        #expect(action == .answerAndClose(status: 408, message: "the request head did not arrive within 10 s", version: .http1_1))
        #expect(lifecycle.closing)
        // Nothing read after the 408 goes further.
        let readAfter408 = lifecycle.headReceived(version: .http1_1)
        #expect(!readAfter408)
    }

    @Test("Between requests no clock runs; the next head's deadline counts from its first bytes")
    func headDeadlineFromFirstBytes() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        Self.oneRequest(at: 1, on: &lifecycle)
        #expect(lifecycle.phase == .busy)
        #expect(lifecycle.deadline == nil)
        lifecycle.answerEnded(now: Self.at(1.5))
        #expect(lifecycle.phase == .idle)
        #expect(lifecycle.deadline == nil)
        // Part of a head, 30 s later: a read that delivered no part.
        lifecycle.readCompleted(now: Self.at(31.5))
        #expect(lifecycle.phase == .awaitingHead)
        #expect(lifecycle.deadline == Self.at(41.5))
    }

    @Test("While the server answers, or the client leaves its answers unread, the clock is not the client's: it starts again")
    func serverHoldsTheClient() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        // The channel is not writable (the client does not read) when the head deadline comes.
        let notReading = lifecycle.deadlinePassed(now: Self.at(10), isWritable: false)
        #expect(notReading == .none)
        #expect(lifecycle.deadline == Self.at(20))
        // Writable again at 12 s: the head's clock starts afresh from then.
        lifecycle.writabilityChanged(isWritable: true, now: Self.at(12))
        #expect(lifecycle.deadline == Self.at(22))
    }

    @Test("A body is measured per window: enough bytes restart the window, too few are answered 408 naming the rate")
    func bodyRate() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        _ = lifecycle.headReceived(version: .http1_0)
        #expect(lifecycle.deadline == nil)
        lifecycle.readCompleted(now: Self.at(1))
        #expect(lifecycle.deadline == Self.at(3))
        _ = lifecycle.bodyReceived(count: 2_000)
        let enoughBytes = lifecycle.deadlinePassed(now: Self.at(3), isWritable: true)
        #expect(enoughBytes == .none)
        #expect(lifecycle.deadline == Self.at(5))
        _ = lifecycle.bodyReceived(count: 1_999)
        let action = lifecycle.deadlinePassed(now: Self.at(5), isWritable: true)
        #expect(action == .answerAndClose(
            status: 408, message: "the request body arrived slower than 1000 bytes/s over 2 s", version: .http1_0))
    }

    @Test("With no minimum body rate, a body has no clock")
    func noBodyRate() {
        let limits = ConnectionLifecycle.Limits(headerTimeout: .seconds(10), bodyRateWindow: .seconds(2), minimumBodyBytesPerSecond: 0)
        var lifecycle = ConnectionLifecycle(limits: limits, acceptedAt: Self.start)
        _ = lifecycle.headReceived(version: .http1_1)
        lifecycle.readCompleted(now: Self.at(1))
        #expect(lifecycle.deadline == nil)
    }

    @Test("A wake-up for a deadline moved since it was scheduled does nothing (a window ending in the tick a delayed answer ends)")
    func staleWakeUp() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        // A request answered after a 2 s delay; a body pipelined behind it is in the same read.
        Self.oneRequest(at: 0, on: &lifecycle)
        _ = lifecycle.headReceived(version: .http1_1)
        lifecycle.readCompleted(now: Self.at(0))
        let window = lifecycle.deadline
        #expect(window == Self.at(2))
        // The delayed answer ends at 2 s, restarting the window; the old wake-up fires in the same tick.
        lifecycle.answerEnded(now: Self.at(2))
        #expect(lifecycle.deadline == Self.at(4))
        let staleWakeUp = lifecycle.deadlinePassed(now: Self.at(2), isWritable: true)
        #expect(staleWakeUp == .none)
        #expect(!lifecycle.closing)
    }

    @Test("The server stopping while a stream is written: the connection closes when that answer ends, not at the shutdown deadline")
    func stoppingDuringAStream() {
        var lifecycle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        Self.oneRequest(at: 0, on: &lifecycle)
        // The stream's head is written, kept alive: nothing said then that the connection closes.
        let closesWithHead = lifecycle.answerWritten(keepsAlive: true)
        #expect(!closesWithHead)
        let stopping = lifecycle.serverStopping()
        #expect(stopping == .none, "the stream is still being written")
        let closesNow = lifecycle.answerEnded(now: Self.at(3))
        #expect(closesNow)
        #expect(lifecycle.closing)
    }

    @Test("Shed: an idle connection closes, a slow head is answered 503, a busy one closes after its last awaited answer")
    func shedding() {
        var idle = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        Self.oneRequest(at: 0, on: &idle)
        idle.answerEnded(now: Self.at(0.1))
        let idleShed = idle.shed()
        #expect(idleShed == .close)

        var slowHead = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        let slowHeadShed = slowHead.shed()
        #expect(slowHeadShed == .answerAndClose(status: 503, message: "the server is at its connection limit (--max-connections)", version: .http1_1))

        var busy = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        Self.oneRequest(at: 0, on: &busy)
        Self.oneRequest(at: 0, on: &busy)
        let busyShed = busy.shed()
        #expect(busyShed == .none)
        // Two answers awaited: the first keeps the connection, the last closes it.
        let firstClosesIt = busy.answerWritten(keepsAlive: true)
        #expect(!firstClosesIt)
        busy.answerEnded(now: Self.at(1))
        let lastClosesIt = busy.answerWritten(keepsAlive: true)
        #expect(lastClosesIt)
        #expect(busy.closing)
    }

    @Test("Stopping or idle: a connection with nothing awaited closes now, a busy one after its answers; one not reading closes now")
    func stoppingAndIdle() {
        var quiet = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        let stopping = quiet.serverStopping()
        #expect(stopping == .close)

        var busy = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        Self.oneRequest(at: 0, on: &busy)
        let idleWhileBusy = busy.idleTimedOut(isWritable: true, now: Self.at(60), idleTimeout: .seconds(60))
        #expect(idleWhileBusy == .none)
        #expect(busy.closesAfterResponse)
        let idleNotReading = busy.idleTimedOut(isWritable: false, now: Self.at(60), idleTimeout: .seconds(60))
        #expect(idleNotReading == .close)
    }

    @Test("Idle while reading a long run of pipelined answers slowly is not idle; taking nothing for the whole timeout is")
    func slowReaderOfPipelinedAnswers() {
        var reader = ConnectionLifecycle(limits: Self.limits, acceptedAt: Self.start)
        for _ in 0..<40 { Self.oneRequest(at: 0, on: &reader) }
        // It read nothing since its requests, but took a buffer of answers 10 s ago: the socket is full
        // again only because the server keeps writing.
        reader.writabilityChanged(isWritable: false, now: Self.at(1))
        reader.writabilityChanged(isWritable: true, now: Self.at(50))
        reader.writabilityChanged(isWritable: false, now: Self.at(50))
        let stillTaking = reader.idleTimedOut(isWritable: false, now: Self.at(60), idleTimeout: .seconds(60))
        #expect(stillTaking == .none)
        #expect(!reader.closing)
        // A timeout later, nothing taken since: it stopped reading.
        let stopped = reader.idleTimedOut(isWritable: false, now: Self.at(120), idleTimeout: .seconds(60))
        #expect(stopped == .close)
    }
}
