import NIOCore
import NIOHTTP1
import Synchronization
import Tonearm

/// Sent through every connection's pipeline when the server stops accepting.
struct ServerStopping: Sendable {}

/// Sent to a connection chosen to make room for a new one when the server is at its connection limit.
struct ShedConnection: Sendable {}

/// Asks ``HTTPConnectionHandler`` to write `response` with `Connection: close` and close: how a slow
/// client, or one shed for a new one, is told why it is being closed.
struct AnswerAndClose {
    var response: Response
    var version: HTTPVersion
}

/// The open connections, so stopping can close the idle ones and let busy ones finish their exchange,
/// and so a new connection past ``ServerConfiguration/maximumConnections`` can take an idle one's place.
///
/// Choosing whom to shed costs amortised O(1) per accept, not a scan of every connection under the
/// lock: 3,000 slowloris clients arriving at a full server would otherwise cost millions of entry
/// visits, serialised with every other accept, while a fresh client waits behind them in the backlog.
/// Connections entering the idle or slow-head phase queue themselves (``noteSheddable(_:word:)``), in
/// the order they entered it; a queued item whose connection has since moved on is recognised by its
/// word and dropped when it reaches the front, or when the queues are compacted. The queues are only
/// kept from half the cap on, so a server far from full takes no lock on its request path.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        var activity: ConnectionActivity
        /// Asked to close to make room; no longer counted against the limit.
        var shed = false
    }

    /// A connection that entered a sheddable phase, and the word saying so.
    private struct Candidate {
        var activity: ConnectionActivity
        var word: UInt64
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Entries not shed: what counts against the limit.
        var counted = 0
        var stopping = false
        /// Connections that went idle, then those that began a head, oldest first (while tracking).
        var idle = CircularBuffer<Candidate>()
        var awaitingHead = CircularBuffer<Candidate>()
    }

    private let state = Mutex(State())
    /// Whether the candidate queues are kept; read without the lock on every phase change.
    private let tracking = Atomic(false)
    private let maximumConnections: Int

    init(maximumConnections: Int) {
        self.maximumConnections = max(1, maximumConnections)
    }

    /// From this many connections on, the candidate queues are kept; below `trackingOff` they are
    /// dropped. The gap between them makes each rebuild (one pass over the entries) pay for itself.
    private var trackingOn: Int { maximumConnections / 2 }
    private var trackingOff: Int { maximumConnections / 4 }

    /// Adds `channel`, shedding the longest-idle connection (else the longest-waiting slow head) when
    /// the server is full. A channel not added (the server is stopping, or full of connections being
    /// answered) is closed by its initializer (``admission(ofNew:)``).
    ///
    /// Called by ``ConnectionAdmission`` on the listener's event loop, in the order connections were
    /// accepted: counting and choosing whom to shed must not depend on which child event loop gets to
    /// a connection first (a busy loop would otherwise let a later connection in ahead of an earlier one).
    func admit(_ channel: any Channel) {
        let activity = ConnectionActivity(key: ObjectIdentifier(channel))
        let (added, victim) = state.withLock { state -> (Bool, (any Channel)?) in
            guard !state.stopping else { return (false, nil) }
            var victim: (any Channel)?
            if state.counted >= maximumConnections {
                guard let key = Self.nextSheddable(&state) else { return (false, nil) }
                state.entries[key]?.shed = true
                state.counted -= 1
                victim = state.entries[key]?.channel
            }
            state.entries[activity.key] = Entry(channel: channel, activity: activity)
            state.counted += 1
            if state.counted >= trackingOn && !tracking.load(ordering: .relaxed) {
                // Flag first, then read every word (see ConnectionActivity.enter).
                tracking.store(true, ordering: .sequentiallyConsistent)
                Self.rebuildQueues(&state)
            } else if tracking.load(ordering: .relaxed) {
                Self.enqueue(Candidate(activity: activity, word: activity.word), in: &state)
            }
            return (true, victim)
        }
        victim?.pipeline.fireUserInboundEventTriggered(ShedConnection())
        if added {
            channel.closeFuture.whenComplete { [self] _ in
                state.withLock { state in
                    guard let removed = state.entries.removeValue(forKey: activity.key) else { return }
                    if !removed.shed { state.counted -= 1 }
                    if state.counted < trackingOff && tracking.load(ordering: .relaxed) {
                        tracking.store(false, ordering: .sequentiallyConsistent)
                        state.idle.removeAll()
                        state.awaitingHead.removeAll()
                    }
                }
            }
        }
    }

    /// What became of a connection between its accept and its initializer.
    enum Admission {
        /// Counted against the limit: set up its pipeline with this activity.
        case admitted(ConnectionActivity)
        /// Admitted, then chosen to make room for a newer connection before its pipeline existed, so it
        /// missed the ``ShedConnection`` event: set up its pipeline and tell it, so that its client is
        /// answered `503` like any other shed connection rather than closed without a word.
        case shed(ConnectionActivity)
        /// Not admitted (the server is stopping, or full of busy connections): close it.
        case refused
    }

    /// What became of `channel`, for its initializer.
    func admission(ofNew channel: any Channel) -> Admission {
        state.withLock { state in
            guard let entry = state.entries[ObjectIdentifier(channel)] else { return .refused }
            return entry.shed ? .shed(entry.activity) : .admitted(entry.activity)
        }
    }

    /// Called by a connection that entered the idle or slow-head phase, `word` being what
    /// ``ConnectionActivity/enter(_:since:)`` returned.
    func noteSheddable(_ activity: ConnectionActivity, word: UInt64) {
        guard tracking.load(ordering: .sequentiallyConsistent) else { return }
        state.withLock { state in
            guard tracking.load(ordering: .relaxed) else { return }
            Self.enqueue(Candidate(activity: activity, word: word), in: &state)
        }
    }

    private static func enqueue(_ candidate: Candidate, in state: inout State) {
        switch ConnectionActivity.unpack(candidate.word).phase {
        case .idle: state.idle.append(candidate)
        case .awaitingHead: state.awaitingHead.append(candidate)
        case .busy: return
        }
        // Items of connections that moved on pile up on a busy keep-alive server: drop them once they
        // outnumber the connections, which takes one pass per as many phase changes.
        if state.idle.count + state.awaitingHead.count > 2 * state.entries.count + 64 {
            state.idle = CircularBuffer(state.idle.filter { isCurrent($0, in: state) })
            state.awaitingHead = CircularBuffer(state.awaitingHead.filter { isCurrent($0, in: state) })
        }
    }

    /// Whether `candidate`'s connection is open, not shed, and still in the phase it queued for.
    private static func isCurrent(_ candidate: Candidate, in state: State) -> Bool {
        guard let entry = state.entries[candidate.activity.key], !entry.shed else { return false }
        return candidate.activity.word == candidate.word
    }

    /// Every open connection in a sheddable phase, queued in the order it entered it.
    private static func rebuildQueues(_ state: inout State) {
        var found: [Candidate] = []
        for entry in state.entries.values where !entry.shed {
            found.append(Candidate(activity: entry.activity, word: entry.activity.word))
        }
        state.idle.removeAll()
        state.awaitingHead.removeAll()
        for candidate in found.sorted(by: { ($0.word & ~(3 << 62)) < ($1.word & ~(3 << 62)) }) {
            enqueue(candidate, in: &state)
        }
    }

    /// The connection to shed: the idle one there longest, else the slow head there longest; never a
    /// busy one. Stale items met on the way are dropped.
    private static func nextSheddable(_ state: inout State) -> ObjectIdentifier? {
        while let candidate = state.idle.popFirst() {
            if isCurrent(candidate, in: state) { return candidate.activity.key }
        }
        while let candidate = state.awaitingHead.popFirst() {
            if isCurrent(candidate, in: state) { return candidate.activity.key }
        }
        return nil
    }

    /// Tells every open connection the server is stopping, and returns them; no connection is
    /// registered from now on.
    func stop() -> [any Channel] {
        let channels = state.withLock { state in
            state.stopping = true
            return state.entries.values.map(\.channel)
        }
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(ServerStopping()) }
        return channels
    }
}

/// Decides when a connection closes: silent past the idle timeout, too slow with a request head or body,
/// shed for a new connection, or open when the server stops; but never while its request is being
/// answered (a replayed delay may be long). A connection busy when the server stops or is shed is closed
/// right after its response, with `Connection: close` on it.
///
/// It sits between the request decoder and ``HTTPConnectionHandler``, so it sees whole request parts and
/// each answer on its way to the writer. The head deadline and the body rate only count while the client has the connection's
/// attention: while the server answers an earlier request, or waits for the client to read an answer,
/// it reads nothing from the client, so they start again when it resumes.
final class ConnectionLifecycleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = ResponseWrite
    typealias OutboundOut = ResponseWrite

    /// Where the client is in sending its next request.
    private enum Progress {
        /// Nothing of the next request received (the idle timeout applies).
        case betweenRequests
        /// Accepted, or part of a head received: the head deadline runs.
        case head
        /// The head received; the body rate is checked every window.
        case body(version: HTTPVersion, receivedInWindow: Int)
    }

    private let headerTimeout: TimeAmount
    private let bodyRateWindow: TimeAmount
    /// The fewest body bytes a window must bring; 0 checks nothing.
    private let minimumBodyBytesPerWindow: Int
    private let minimumBodyRate: Int
    private let activity: ConnectionActivity
    private let registry: ConnectionRegistry

    /// Complete requests waiting for their responses (more than one when a client pipelines).
    private var awaitingResponses = 0
    private var closeAfterResponse = false
    /// A slow client was answered 408 (or shed): nothing more goes up the pipeline.
    private var closing = false
    private var progress = Progress.head
    /// Request parts the current read delivered; none means the bytes read are part of a head.
    private var partsThisRead = 0
    /// The head deadline or the end of the body's window, whichever applies now.
    private var timer: Scheduled<Void>?
    /// Which arming of ``timer`` is current. Cancelling a scheduled task does not stop it once the
    /// event loop has taken it into the batch it is running: a window that ends in the same tick as a
    /// delayed answer (which rearms the clock) would still fire, see the connection as reading again
    /// and answer 408 to a body it has not begun to read. A firing whose generation is not current is
    /// ignored.
    private var timerGeneration: UInt64 = 0
    private var published: ConnectionActivity.Phase = .awaitingHead
    init(configuration: ServerConfiguration, activity: ConnectionActivity, registry: ConnectionRegistry) {
        headerTimeout = .nanoseconds(TonearmServer.nanoseconds(configuration.headerTimeout))
        bodyRateWindow = .nanoseconds(TonearmServer.nanoseconds(configuration.bodyRateWindow))
        minimumBodyRate = max(0, configuration.minimumBodyBytesPerSecond)
        let windowSeconds = Double(bodyRateWindow.nanoseconds) / 1e9
        minimumBodyBytesPerWindow = Int(min(Double(Int.max / 2), Double(minimumBodyRate) * windowSeconds))
        self.activity = activity
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // For the first request the head deadline counts from accept.
        armTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        partsThisRead += 1
        switch unwrapInboundIn(data) {
        case .head(let head):
            // The body's clock starts at the end of this read, if the request has not ended by then
            // (most have no body: no timer is set for them).
            cancelTimer()
            progress = .body(version: head.version, receivedInWindow: 0)
            publish()
        case .body(let chunk):
            if case .body(let version, let received) = progress {
                progress = .body(version: version, receivedInWindow: received + chunk.readableBytes)
            }
        case .end:
            awaitingResponses += 1
            progress = .betweenRequests
            cancelTimer()
            publish()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        switch progress {
        case .betweenRequests where partsThisRead == 0 && !closing:
            // Bytes arrived that are not yet a whole head: the next request has begun. (Bytes left over
            // after a request that ends in the same read are caught by the next read.)
            progress = .head
            armTimer(context: context)
            publish()
        case .body where timer == nil && !closing:
            armTimer(context: context)
        default:
            break
        }
        partsThisRead = 0
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable && awaitingResponses == 0 { restartClock(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var write = unwrapOutboundIn(data)
        guard write.response.isFinal else { return context.write(data, promise: promise) }
        let ending = write.response.ending
        if closeAfterResponse && awaitingResponses <= 1 && write.response.ending == .keepAlive {
            // The last answer awaited says `Connection: close`, and nothing read after it is answered.
            write.response.ending = .close
            closing = true
        }
        guard case .parts(_, .dribbled, _) = write.response.message else {
            // The value as it came when unchanged: boxing it again costs a copy on every answer.
            context.write(write.response.ending == ending ? data : wrapOutboundOut(write), promise: promise)
            return answerEnded(context: context)
        }
        // A dribbled answer ends with its last part: until then the server holds the client.
        let written = context.eventLoop.makePromise(of: Void.self)
        if let promise { written.futureResult.cascade(to: promise) }
        written.futureResult.assumeIsolated().whenComplete { [self] _ in answerEnded(context: context) }
        context.write(wrapOutboundOut(write), promise: written)
    }

    /// After an answer's end: once none is awaited, the client has the connection's attention again.
    private func answerEnded(context: ChannelHandlerContext) {
        awaitingResponses = max(0, awaitingResponses - 1)
        if awaitingResponses == 0 {
            restartClock(context: context)
            publish()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is IdleStateHandler.IdleStateEvent where !context.channel.isWritable:
            // Silent for the idle timeout and not reading its answers either: nothing will move.
            context.close(promise: nil)
        case is IdleStateHandler.IdleStateEvent, is ServerStopping:
            if awaitingResponses > 0 { closeAfterResponse = true } else { context.close(promise: nil) }
        case is ShedConnection:
            switch (awaitingResponses, progress) {
            case (0, .betweenRequests):
                context.close(promise: nil)
            case (0, .head):
                answerAndClose(503, "the server is at its connection limit (--max-connections)", version: .http1_1, context: context)
            default:
                // A request arrived after this connection was chosen: it is answered, then the connection closes.
                closeAfterResponse = true
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The client has the connection's attention again (or its body passed a window): a head or body
    /// under way starts its clock afresh.
    private func restartClock(context: ChannelHandlerContext) {
        if case .body(let version, _) = progress { progress = .body(version: version, receivedInWindow: 0) }
        armTimer(context: context)
    }

    /// Starts the clock that applies to the request under way: the head deadline or the body's window.
    private func armTimer(context: ChannelHandlerContext) {
        cancelTimer()
        let delay: TimeAmount
        switch progress {
        case .betweenRequests:
            return
        case .head:
            delay = headerTimeout
        case .body:
            guard minimumBodyBytesPerWindow > 0 else { return }
            delay = bodyRateWindow
        }
        let generation = timerGeneration
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            guard generation == timerGeneration else { return }  // cancelled in the tick it came due
            timer = nil
            clockRanOut(context: context)
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerGeneration &+= 1
    }

    private func clockRanOut(context: ChannelHandlerContext) {
        guard !closing else { return }
        guard awaitingResponses == 0 && context.channel.isWritable else {
            // The server holds this client (answering, or waiting for it to read): not its slowness.
            return restartClock(context: context)
        }
        switch progress {
        case .betweenRequests:
            return
        case .head:
            answerAndClose(408, "the request head did not arrive within \(Self.describe(headerTimeout))", version: .http1_1, context: context)
        case .body(let version, let received):
            guard received < minimumBodyBytesPerWindow else { return restartClock(context: context) }
            answerAndClose(
                408, "the request body arrived slower than \(minimumBodyRate) bytes/s over \(Self.describe(bodyRateWindow))",
                version: version, context: context)
        }
    }

    private func answerAndClose(_ status: Int, _ message: String, version: HTTPVersion, context: ChannelHandlerContext) {
        closing = true
        cancelTimer()
        context.fireUserInboundEventTriggered(AnswerAndClose(response: ServerCore.plainText(status, message), version: version))
    }

    /// Tells the registry what this connection is doing, when that changed.
    private func publish() {
        let phase: ConnectionActivity.Phase
        if awaitingResponses > 0 {
            phase = .busy
        } else {
            switch progress {
            case .betweenRequests: phase = .idle
            case .head: phase = .awaitingHead
            case .body: phase = .busy
            }
        }
        guard phase != published else { return }
        published = phase
        let word = activity.enter(phase)
        if phase != .busy { registry.noteSheddable(activity, word: word) }
    }

    private static func describe(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
