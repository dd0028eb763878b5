import NIOCore
import NIOPosix
import NIOHTTP1
import Tonearm

/// One answer on its way to the writer: the value, and the request it answers.
///
/// Kept within the 24 bytes `NIOAny` holds inline, so that writing it through the pipeline allocates
/// nothing (``OutgoingResponse`` says how; a test checks the size).
struct ResponseWrite: Sendable {
    var response: OutgoingResponse
    var request: RequestFraming
}

/// The only writer of response bytes: turns each ``ResponseWrite`` into bytes (``ResponseEncoding``),
/// writes them (the caller flushes: `writeAndFlush`), and ends the exchange as the answer says: keeps the connection, closes it once the
/// answer is written, plays a fault, or leaves it to the tunnel. A streamed body (a live feed, a paced
/// recorded stream, a dribble) is written part by part on the event loop's clock; the write's promise
/// completes once the whole answer is written, so the connection knows when the exchange is over.
///
/// It sits where NIO's HTTP response encoder would (``HTTPPipeline``), beneath the request decoder and
/// above TLS, and nothing else in the pipeline writes: there is one encoder, and so one framing.
final class ResponseWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ResponseWrite
    typealias OutboundOut = IOData

    /// How long a closing answer may wait for the client to read it before the connection closes anyway.
    static let finalAnswerGrace = TimeAmount.seconds(2)

    private let log: @Sendable (String) -> Void
    /// Where a paced body waits for its next part: one timer per loop and 250 µs for all streams.
    private let wakeups: PacedWakeups
    /// Set once an answer closes the connection: what is written after it is dropped.
    private var closing = false

    init(log: @escaping @Sendable (String) -> Void, wakeups: PacedWakeups) {
        self.log = log
        self.wakeups = wakeups
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let write = unwrapOutboundIn(data)
        guard !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let response = write.response
        let request = write.request
        if case .fault(let fault) = response.ending {
            return play(fault, version: request.version, promise: promise, context: context)
        }
        switch response.message {
        case .kept(let kept):
            if response.ending == .keepAlive && request.takesKeptEncoding {
                // Flushed by the caller's `writeAndFlush`, as every answer kept alive is.
                return context.write(wrapOutboundOut(.byteBuffer(kept.bytes)), promise: promise)
            }
            // Only responses are kept, so there is one to read; its track is decoded here.
            let answer = kept.response ?? Response(status: 500)
            send(
                OutgoingResponse.Head(status: answer.status, fields: answer.headers), body: answer.body, keep: nil,
                ending: response.ending, request: request, promise: promise, context: context)
        case .parts(let head, .stream(let stream), _):
            sendStreaming(head, stream: stream, ending: response.ending, request: request, promise: promise, context: context)
        case .parts(let head, .chunked(let body), _):
            send(head, body: body, keep: nil, chunked: true, ending: response.ending, request: request, promise: promise, context: context)
        case .parts(let head, let body, let keep):
            send(head, body: body.bytes, keep: keep, ending: response.ending, request: request, promise: promise, context: context)
        }
    }

    /// Writes `head` and `body` whole (`chunked`: framed as one chunk, ``OutgoingResponse/Body/chunked(_:)``),
    /// then ends as `ending` says.
    private func send(
        _ head: OutgoingResponse.Head, body: [UInt8], keep: EncodedResponseCache.Slot?, chunked: Bool = false,
        ending: OutgoingResponse.Ending, request: RequestFraming, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext
    ) {
        let keepAlive = ending == .keepAlive || ending == .interim
        let framed = Self.isFramed(ending)
        let allocator = context.channel.allocator
        let encode = {
            ResponseEncoding.encode(
                head, bodyCount: body.count, body: body, request: request, keepAlive: keepAlive, framed: framed, chunked: chunked,
                allocator: allocator)
        }
        // What a slot keeps is the answer to the common request: HTTP/1.1, kept alive, not HEAD.
        let bytes = if let keep, ending == .keepAlive, request.takesKeptEncoding { keep.buffer(encode: encode) } else { encode() }
        guard let bytes else { return refuse(head, request: request, promise: promise, context: context) }
        finish(bytes, ending: ending, promise: promise, context: context)
    }

    /// Writes `bytes`, a whole answer, and ends the exchange as `ending` says.
    private func finish(_ bytes: ByteBuffer, ending: OutgoingResponse.Ending, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        guard ending == .close else {
            return context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
        }
        closing = true
        writeThenClose(bytes, promise: promise, context: context)
    }

    /// Writes and flushes `bytes`, the last of an answer, then closes the connection: once they are
    /// written, or after ``finalAnswerGrace`` for a client that does not read them.
    private func writeThenClose(_ bytes: ByteBuffer, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        if let promise { written.futureResult.cascade(to: promise) }
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(bytes)), promise: written)
        context.eventLoop.scheduleTask(in: Self.finalAnswerGrace) { channel.close(promise: nil) }
    }

    /// Writes the head of `head` at once, then what `stream`'s source produces, each part once the one
    /// before it is written. A body known in advance follows a head stating its `Content-Length` (empty,
    /// it is written whole); one of unknown length is chunked to HTTP/1.1 (kept alive after the last
    /// chunk when `ending` says so) and written to HTTP/1.0 until the connection closes. The promise
    /// completes after the end; a connection that closes meanwhile stops the stream. A `HEAD`, or a
    /// status without a body, gets the head alone and the source is never asked.
    private func sendStreaming(
        _ head: OutgoingResponse.Head, stream: BodyStream, ending: OutgoingResponse.Ending, request: RequestFraming,
        promise: EventLoopPromise<Void>?, context: ChannelHandlerContext
    ) {
        let known = stream.knownBody
        guard ResponseEncoding.sendsBody(status: head.status, request: request), known?.isEmpty != true else {
            return send(head, body: known ?? [], keep: nil, ending: ending, request: request, promise: promise, context: context)
        }
        let chunked = known == nil && request.version == .http1_1
        let keepAlive = (known != nil || chunked) && ending == .keepAlive
        guard let first = ResponseEncoding.encode(
            head, bodyCount: known?.count ?? 0, body: nil, request: request, keepAlive: keepAlive, framed: true, streamed: known == nil,
            allocator: context.channel.allocator)
        else {
            return refuse(head, request: request, promise: promise, context: context)
        }
        if !keepAlive { closing = true }
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(first)), promise: nil)
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        stream.source.attach { [stream] in
            loop.execute {
                let (handler, context) = bound.value
                handler.pump(stream, chunked: chunked, keepAlive: keepAlive, promise: promise, context: context)
            }
        }
        // A live source (an upstream relayed as it comes) hears of a client that leaves while it waits,
        // so the upstream stops at once. A paced body known in advance needs no notice: its next step
        // finds the connection closed, and a connection serving many does not gather callbacks.
        if known == nil { context.channel.closeFuture.whenComplete { [stream] _ in stream.source.stopped() } }
        pump(stream, chunked: chunked, keepAlive: keepAlive, promise: promise, context: context)
    }

    /// Asks `stream` for its next step and does it: writes a part and asks again once it is written
    /// (so a client that does not read holds one part, never more), waits on the loop's clock, or ends
    /// the body.
    private func pump(
        _ stream: BodyStream, chunked: Bool, keepAlive: Bool, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else {
            stream.source.stopped()
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let again: @Sendable () -> Void = {
            let (handler, context) = bound.value
            handler.pump(stream, chunked: chunked, keepAlive: keepAlive, promise: promise, context: context)
        }
        switch stream.source.next(now: context.eventLoop.now) {
        case .write(let bytes) where bytes.isEmpty:
            // An empty chunk would end a chunked body: nothing is written, and the source is asked again.
            context.eventLoop.execute(again)
        case .write(let bytes):
            let part = chunked ? ResponseEncoding.chunk(bytes, allocator: context.channel.allocator) : ByteBuffer(bytes: bytes)
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(part))).whenComplete { result in
                switch result {
                case .success: again()
                case .failure(let error): promise?.fail(error)
                }
            }
        case .wait(let deadline):
            wakeups.wake(on: context.eventLoop, at: deadline, again)
        case .idle:
            break  // the source wakes the writer when it has more
        case .end:
            let last = ByteBuffer(string: chunked ? ResponseEncoding.lastChunk : "")
            guard keepAlive else { return writeThenClose(last, promise: promise, context: context) }
            // An empty write still completes the promise once everything before it is written.
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(last)), promise: promise)
        }
    }

    /// An answer that cannot be sent as it is (a field HTTP cannot carry): the client is answered 500
    /// saying so, and the connection closes, rather than sent a head no parser would accept.
    private func refuse(_ head: OutgoingResponse.Head, request: RequestFraming, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        let names = head.fields.filter { !ResponseEncoding.isValidName($0.name) || !ResponseEncoding.isValidValue($0.value) }.map(\.name)
        let message = "tonearm cannot send this answer: HTTP cannot carry its header field(s) \(names.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(a name must be a token, a value must have no control character)"
        log("tonearm: \(message)")
        let refusal = ServerCore.plainText(500, message)
        guard let bytes = ResponseEncoding.encode(
            OutgoingResponse.Head(status: 500, fields: refusal.headers), bodyCount: refusal.body.count, body: refusal.body,
            request: request, keepAlive: false, framed: true, allocator: context.channel.allocator)
        else {
            closing = true
            promise?.fail(ChannelError.ioOnClosedChannel)
            return context.close(promise: nil)
        }
        finish(bytes, ending: .close, promise: promise, context: context)
    }

    /// Fails the connection as `fault` says; the promise completes once it is done.
    private func play(_ fault: ConnectionFault, version: HTTPVersion, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        closing = true
        let channel = context.channel
        switch fault {
        case .close:
            context.close(promise: promise)
        case .reset:
            // SO_LINGER 0 makes close send RST instead of FIN.
            guard let socket = channel as? any SocketOptionProvider else { return channel.close(promise: promise) }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: promise) }
        case .garbageThenClose, .malformedChunk:
            let text = fault == .garbageThenClose ? ResponseEncoding.garbage : ResponseEncoding.malformedChunk(version: version)
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer(string: text)))).whenComplete { _ in
                channel.close(promise: promise)
            }
        }
    }

    /// Whether an answer ending so is framed (`Content-Length`, `Connection`): not an interim head, nor
    /// a tunnel's 200, which carry their fields as they are.
    private static func isFramed(_ ending: OutgoingResponse.Ending) -> Bool {
        switch ending {
        case .interim, .tunnel, .webSocket: false
        case .keepAlive, .close, .fault: true
        }
    }
}
