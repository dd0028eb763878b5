import NIOCore
import NIOHTTP1

/// When one connection closes, decided as a value: silent past the idle timeout, too slow with a request
/// head or body, shed for a new connection, or open when the server stops; but never while its request
/// is being answered (a replayed delay may be long). A connection busy when the server stops or is shed
/// is closed right after its last awaited answer, with `Connection: close` on it.
///
/// Events go in (a request's parts, the end of a read, an answer written and ended, the channel's
/// writability, the idle timeout, the server stopping, the connection being shed, the clock), each with
/// the time it happened where time matters; what to do comes out as an ``Action``, and ``deadline``
/// says when the clock that applies runs out. ``HTTPConnectionHandler`` only executes it: it
/// schedules a wake-up at ``deadline`` and reports ``deadlinePassed(now:isWritable:)``. A wake-up for a
/// deadline moved since (a timer the event loop had already taken into the batch it runs when it was
/// cancelled) finds the deadline in the future and does nothing, so no generation counter is needed.
/// Tests drive it with instants of their own: no test waits for a deadline.
///
/// The head deadline and the body rate only count while the client has the connection's attention:
/// while the server answers an earlier request, or waits for the client to read an answer, it reads
/// nothing from the client, so they start again when it resumes.
struct ConnectionLifecycle {
    /// The limits a connection's client must keep to.
    struct Limits: Sendable {
        /// How long a request head may take to arrive, from accept or from its first byte.
        let headerTimeout: TimeAmount
        /// The window over which a body's rate is measured.
        let bodyRateWindow: TimeAmount
        /// The slowest body accepted, in bytes a second; 0 checks nothing.
        let minimumBodyBytesPerSecond: Int

        /// The fewest body bytes a window must bring; 0 checks nothing.
        let minimumBodyBytesPerWindow: Int

        init(headerTimeout: TimeAmount, bodyRateWindow: TimeAmount, minimumBodyBytesPerSecond: Int) {
            self.headerTimeout = headerTimeout
            self.bodyRateWindow = bodyRateWindow
            self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
            let windowSeconds = Double(bodyRateWindow.nanoseconds) / 1e9
            minimumBodyBytesPerWindow = Int(min(Double(Int.max / 2), Double(max(0, minimumBodyBytesPerSecond)) * windowSeconds))
        }

        init(_ configuration: ServerConfiguration) {
            self.init(
                headerTimeout: .nanoseconds(TonearmServer.nanoseconds(configuration.limits.headerTimeout)),
                bodyRateWindow: .nanoseconds(TonearmServer.nanoseconds(configuration.limits.bodyRateWindow)),
                minimumBodyBytesPerSecond: configuration.limits.minimumBodyBytesPerSecond)
        }
    }

    /// Where the client is in sending its next request.
    enum Progress: Equatable {
        /// Nothing of the next request received (the idle timeout applies).
        case betweenRequests
        /// Accepted, or part of a head received: the head deadline runs.
        case head
        /// The head received; the body rate is checked every window.
        case body(version: HTTPVersion, receivedInWindow: Int)
    }

    /// What the connection does.
    enum Action: Equatable {
        /// Nothing.
        case none
        /// Close now, with no answer.
        case close
        /// Answer `status` with `message` and `Connection: close`, then close; nothing more is read.
        case answerAndClose(status: Int, message: String, version: HTTPVersion)
    }

    let limits: Limits
    /// Complete requests waiting for their answers (more than one when a client pipelines).
    private(set) var awaitingResponses = 0
    /// The connection closes once the answers awaited are written (the server stops, or it was shed).
    private(set) var closesAfterResponse = false
    /// The connection is being closed: nothing more it reads goes up the pipeline.
    private(set) var closing = false
    private(set) var progress = Progress.head
    /// When the clock that applies now (the head deadline, the end of the body's window) runs out;
    /// `nil` while none runs.
    private(set) var deadline: NIODeadline?
    /// Request parts the current read delivered; none means the bytes read are part of a head.
    private var partsThisRead = 0
    /// When the client last took what was written to it (the channel became writable again): a client
    /// reading a long run of pipelined answers reads no requests meanwhile, yet is not idle.
    private var answerTakenAt: NIODeadline?

    /// A connection accepted at `now`: for its first request the head deadline counts from accept.
    init(limits: Limits, acceptedAt now: NIODeadline) {
        self.limits = limits
        arm(now: now)
    }

    /// What the connection is doing, as the registry sheds by it.
    var phase: ConnectionActivity.Phase {
        if awaitingResponses > 0 { return .busy }
        switch progress {
        case .betweenRequests: return .idle
        case .head: return .awaitingHead
        case .body: return .busy
        }
    }

    // MARK: - Reading

    /// A request head arrived; `false` when the connection is closing and the part goes no further.
    mutating func headReceived(version: HTTPVersion) -> Bool {
        guard !closing else { return false }
        partsThisRead += 1
        // The body's clock starts at the end of this read, if the request has not ended by then (most
        // have no body: no clock runs for them).
        deadline = nil
        progress = .body(version: version, receivedInWindow: 0)
        return true
    }

    /// `count` bytes of a body arrived; `false` when the connection is closing.
    mutating func bodyReceived(count: Int) -> Bool {
        guard !closing else { return false }
        partsThisRead += 1
        if case .body(let version, let received) = progress {
            progress = .body(version: version, receivedInWindow: received &+ count)
        }
        return true
    }

    /// A request ended: it awaits its answer; `false` when the connection is closing.
    mutating func requestEnded() -> Bool {
        guard !closing else { return false }
        partsThisRead += 1
        awaitingResponses += 1
        progress = .betweenRequests
        deadline = nil
        return true
    }

    /// A read from the socket ended at `now`.
    mutating func readCompleted(now: NIODeadline) {
        defer { partsThisRead = 0 }
        guard !closing else { return }
        switch progress {
        case .betweenRequests where partsThisRead == 0:
            // Bytes arrived that are not yet a whole head: the next request has begun. (Bytes left over
            // after a request that ends in the same read are caught by the next read.)
            progress = .head
            arm(now: now)
        case .body where deadline == nil:
            arm(now: now)
        default:
            break
        }
    }

    // MARK: - Answering

    /// A final answer is on its way to the writer. Returns whether it must close the connection
    /// although it would keep it: the last awaited answer of a connection that closes after them, which
    /// then reads nothing more.
    mutating func answerWritten(keepsAlive: Bool) -> Bool {
        // An answer that does not keep the connection: the writer closes it once that answer is written.
        guard keepsAlive else {
            closing = true
            return false
        }
        guard closesAfterResponse, awaitingResponses <= 1 else { return false }
        closing = true
        return true
    }

    /// A final answer ended at `now` (written, or its last dribbled or streamed part): once none is
    /// awaited, the client has the connection's attention again, or, when the connection was to close
    /// after its answers since that answer's head was written (the server stopping while a stream was
    /// written), it closes: returns whether to close now. (A `Bool`, not an ``Action``: this runs after
    /// every answer, and returning the enum cost the request path 85 instructions: 36,002 against 35,917.)
    @discardableResult
    mutating func answerEnded(now: NIODeadline) -> Bool {
        awaitingResponses = max(0, awaitingResponses - 1)
        guard awaitingResponses == 0 else { return false }
        if closesAfterResponse && !closing {
            closing = true
            return true
        }
        restartClock(now: now)
        return false
    }

    /// The channel became writable, or stopped being so, at `now`.
    mutating func writabilityChanged(isWritable: Bool, now: NIODeadline) {
        guard isWritable else { return }
        answerTakenAt = now
        if awaitingResponses == 0 { restartClock(now: now) }
    }

    // MARK: - The clock and the server

    /// The wake-up scheduled for ``deadline`` came at `now`; `isWritable` is the channel's.
    mutating func deadlinePassed(now: NIODeadline, isWritable: Bool) -> Action {
        guard !closing, let deadline, now >= deadline else { return .none }  // moved since it was scheduled
        self.deadline = nil
        guard awaitingResponses == 0 && isWritable else {
            // The server holds this client (answering, or waiting for it to read): not its slowness.
            restartClock(now: now)
            return .none
        }
        switch progress {
        case .betweenRequests:
            return .none
        case .head:
            return answerAndClose(408, "the request head did not arrive within \(Self.describe(limits.headerTimeout))", version: .http1_1)
        case .body(let version, let received):
            guard received < limits.minimumBodyBytesPerWindow else {
                restartClock(now: now)
                return .none
            }
            return answerAndClose(
                408,
                "the request body arrived slower than \(max(0, limits.minimumBodyBytesPerSecond)) bytes/s over "
                    + Self.describe(limits.bodyRateWindow),
                version: version)
        }
    }

    /// The connection read nothing for `idleTimeout`, up to `now`.
    mutating func idleTimedOut(isWritable: Bool, now: NIODeadline, idleTimeout: TimeAmount) -> Action {
        guard isWritable else {
            // Not taking its answers either: nothing will move, unless it took some within the timeout
            // (it reads a long run of pipelined answers, slowly; it is asked again a timeout later).
            if let taken = answerTakenAt, now - taken < idleTimeout { return .none }
            return .close
        }
        return closeOnceAnswered()
    }

    /// The server stops accepting.
    mutating func serverStopping() -> Action {
        closeOnceAnswered()
    }

    /// The connection was chosen to make room for a new one.
    mutating func shed() -> Action {
        switch (awaitingResponses, progress) {
        case (0, .betweenRequests):
            return .close
        case (0, .head):
            return answerAndClose(503, "the server is at its connection limit (--max-connections)", version: .http1_1)
        default:
            // A request arrived after this connection was chosen: it is answered, then the connection closes.
            closesAfterResponse = true
            return .none
        }
    }

    // MARK: -

    private mutating func closeOnceAnswered() -> Action {
        guard awaitingResponses == 0 else {
            closesAfterResponse = true
            return .none
        }
        return .close
    }

    private mutating func answerAndClose(_ status: Int, _ message: String, version: HTTPVersion) -> Action {
        closing = true
        deadline = nil
        return .answerAndClose(status: status, message: message, version: version)
    }

    /// The client has the connection's attention again (or its body passed a window): a head or body
    /// under way starts its clock afresh.
    private mutating func restartClock(now: NIODeadline) {
        if case .body(let version, _) = progress { progress = .body(version: version, receivedInWindow: 0) }
        arm(now: now)
    }

    /// Starts the clock that applies to the request under way: the head deadline or the body's window.
    private mutating func arm(now: NIODeadline) {
        switch progress {
        case .betweenRequests: deadline = nil
        case .head: deadline = now + limits.headerTimeout
        case .body: deadline = limits.minimumBodyBytesPerWindow > 0 ? now + limits.bodyRateWindow : nil
        }
    }

    private static func describe(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
