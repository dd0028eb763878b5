import NIOPosix
import Synchronization
import Tonearm
import TonearmReplay

/// Answers from the cassette in force, deciding as its replay session does for URLSession: a replay or
/// a miss at once, or the network's answer in a task, fetched (and recorded when the mode records)
/// through the session.
struct CassetteStage: ResponderStage {
    static let name = "Cassette"

    let converter: SessionAnswerConverter
    /// Sends on what the session sends to the network (the server's one upstream client).
    let client: UpstreamClient

    func respond(to request: ChainRequest) -> StageResult {
        let loaded = request.cassette
        var forwarded = request.asSent
        let host: UpstreamHost?
        switch request.route {
        case .local(let target):
            forwarded.url = target
            host = nil
        case .upstream(let url, let upstream):
            forwarded.url = url
            forwarded.headers = HopByHop.removing(from: forwarded.headers, also: HopByHop.andHost)
            host = upstream
        case .control, .extensionAPI, .refused, .tunnel:
            return .passed
        }
        // On the request as sent: the hop-by-hop fields a handshake is made of are gone from the forwarded one.
        switch request.incoming.asksUpgrade ? WebSocketHandshake.detect(request.asSent) : .notWebSocket {
        case .notWebSocket:
            break
        case .handshake(let handshake):
            return webSocket(handshake, forwarded, host: host, loaded: loaded)
        case .malformed(let why):
            return .answered(.now(StageAnswer(
                content: .response(ServerCore.plainText(400, "malformed WebSocket handshake: \(why)")),
                source: JournalEntry.Source(kind: .refused, detail: why), journaled: forwarded)))
        }
        guard let host else {
            guard loaded.mode.replays else {
                let message = "no upstream for \(forwarded.url): give the host as the first path component or start the server with --upstream"
                return .answered(.now(StageAnswer(
                    content: .response(ServerCore.plainText(404, message)), source: JournalEntry.Source(kind: .refused, detail: message),
                    journaled: forwarded)))
            }
            return answered(loaded.session.answerWithoutNetwork(to: forwarded), for: forwarded, host: nil, loaded: loaded)
        }
        switch loaded.session.decide(forwarded) {
        case .answered(let answer):
            return answered(answer, for: forwarded, host: host, loaded: loaded)
        case .fetch(let report):
            return .answered(fetched(forwarded, from: host, missed: report, loaded: loaded))
        }
    }

    /// A WebSocket handshake: a track with a conversation answers it with a 101 and plays the
    /// conversation; a recorded refusal (a track without one) is replayed as any answer; a miss that
    /// may reach the network is relayed to the upstream and recorded.
    private func webSocket(_ handshake: WebSocketHandshake, _ request: Request, host: UpstreamHost?, loaded: LoadedCassette) -> StageResult {
        let decision: SessionDecision = host == nil ? .answered(loaded.session.answerWithoutNetwork(to: request)) : loaded.session.decide(request)
        switch decision {
        case .answered(.replayed(let hit)):
            let track = hit.track
            guard case .response(let response) = track.outcome, track.webSocket != nil || response.status == 101 else {
                return answered(.replayed(hit), for: request, host: host, loaded: loaded)
            }
            let configuration = converter.configuration
            let canonicalizer = loaded.session.engine.canonicalizer
            let replay = WebSocketReplay(
                conversation: track.webSocket ?? WebSocketConversation(), order: configuration.webSocketOrder,
                pacing: configuration.streamPacing, matcher: WebSocketMessageMatcher(canonicalizer.configuration))
            let position: Int = if case .track(let position) = hit.source { position } else { 0 }
            let plan = WebSocketPlan(
                play: .replay(replay), maximumMessageSize: configuration.limits.maximumBodySize,
                missReport: { miss in miss.report(upgrade: request, track: track, position: position, canonicalizer: canonicalizer) },
                redaction: configuration.redaction)
            return .answered(.now(StageAnswer(
                content: .webSocket(handshake.switchingHead(recorded: response.headers), plan), source: loaded.engine.source(of: hit),
                journaled: request, delay: track.delay)))
        case .answered(let answer):
            return answered(answer, for: request, host: host, loaded: loaded)
        case .fetch(let report):
            guard let host else { return .passed }  // without a host the session never sends to the network
            return .answered(relayed(handshake, request, to: host, missed: report, loaded: loaded))
        }
    }

    /// The handshake sent on to the upstream (with the client's key, so the upstream's answer is the one
    /// the client expects, and no extension offer): a `101` opens a relay that records the conversation
    /// when it ends; any other answer is an ordinary exchange, recorded and answered as one.
    private func relayed(
        _ handshake: WebSocketHandshake, _ request: Request, to host: UpstreamHost, missed report: MissReport?, loaded: LoadedCassette
    ) -> Staged<StageAnswer> {
        .later { [client, converter] in
            var upstreamRequest = request
            upstreamRequest.headers.removeAll { $0.name.equalsIgnoringASCIICase("Sec-WebSocket-Extensions") }
            let opening: UpstreamWebSocket.Opening
            do throws(UpstreamClient.Failure) {
                guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else {
                    throw UpstreamClient.Failure(status: 502, message: "no event loop to relay the WebSocket on")
                }
                opening = try await client.openWebSocket(upstreamRequest, on: loop)
            } catch {
                return StageAnswer(
                    content: .response(ServerCore.plainText(error.status, error.message, extra: [HeaderField("Tonearm-Upstream-Error", host.origin)])),
                    source: JournalEntry.Source(kind: .upstreamError, detail: error.message), journaled: request,
                    logLine: "tonearm: \(request.method) \(request.url): \(error.message)")
            }
            switch opening {
            case .answered(let response):
                // A refusal (403, a redirect) is an exchange like any other.
                do {
                    let answer = try await loaded.session.fetch(request, missed: report, from: { _ in response })
                    return converter.answer(answer, for: request, host: host, loaded: loaded)
                } catch {
                    return .cancelled(journaled: request, shutdownTimeout: converter.configuration.limits.shutdownTimeout)
                }
            case .upgraded(let socket, let head):
                // Kept without what is only for this connection: the client's key and the upstream's proof of it.
                let recordedRequest = Request(
                    method: request.method, url: request.url,
                    headers: request.headers.filter { !$0.name.equalsIgnoringASCIICase("Sec-WebSocket-Key") }, body: request.body)
                let recordedResponse = Response(
                    status: 101,
                    headers: HopByHop.removing(from: head.headers).filter { !$0.name.equalsIgnoringASCIICase("Sec-WebSocket-Accept") })
                let session = loaded.session
                let plan = WebSocketPlan(
                    play: .relay(socket, record: { conversation, cut in
                        // A conversation cut at the recording limit is marked as a cut stream is.
                        var response = recordedResponse
                        if let cut { response.headers.append(HeaderField(StreamCapture.cutField, cut)) }
                        session.recordExchange(Track(request: recordedRequest, response: response, webSocket: conversation))
                    }),
                    maximumMessageSize: converter.configuration.limits.maximumBodySize, missReport: nil, redaction: converter.configuration.redaction)
                return StageAnswer(
                    content: .webSocket(handshake.switchingHead(recorded: recordedResponse.headers), plan),
                    source: JournalEntry.Source(kind: .network, detail: host.origin), journaled: request)
            }
        }
    }

    /// The session's answer: a miss goes to the chain, which makes the one miss reply.
    private func answered(_ answer: SessionAnswer, for request: Request, host: UpstreamHost?, loaded: LoadedCassette) -> StageResult {
        if case .missed(let report) = answer {
            return .missed(StageMiss(report: report, lookedIn: converter.lookedIn(loaded), request: request))
        }
        return .answered(.now(converter.answer(answer, for: request, host: host, loaded: loaded)))
    }

    /// `request` fetched from `host` through the cassette's session, in a task (`report` says why the
    /// cassette missed, `nil` when the mode does not replay); a failure answered with the upstream's
    /// status and why. A stream (``UpstreamClient/isStream(_:method:)``) is answered as soon as its head
    /// arrives and relayed as it comes, while the fetch goes on recording it; the client leaving stops
    /// the upstream exchange.
    private func fetched(_ request: Request, from host: UpstreamHost, missed report: MissReport?, loaded: LoadedCassette) -> Staged<StageAnswer> {
        .later { [client, converter] in
            let streamHead = StreamHeadSignal()
            // The journal entry made when a stream's head goes out is completed with the whole body
            // once the fetch has recorded it.
            let outcome = StreamOutcome()
            // On the connection's event loop, as the answering task is (an unstructured task would not
            // inherit its preference): a host whose cooperative threads are all busy must not starve the
            // upstream exchange or its deadline.
            let loop = MultiThreadedEventLoopGroup.currentEventLoop
            let fetch = Task(executorPreference: loop.map { EventLoopExecutor($0) } ?? globalConcurrentExecutor) {
                defer { streamHead.fetchEnded() }
                return try await loaded.session.fetch(request, missed: report, fromPaced: { request in
                    let relayed = Mutex(false)
                    let fetched = try await client.fetch(request) { head in
                        let relay = StreamRelay()
                        relayed.withLock { $0 = true }
                        streamHead.deliver(head, relay: relay)
                        return relay
                    }
                    if relayed.withLock({ $0 }) { outcome.end(.body(fetched.response, fetched.pacing)) }
                    return (fetched.response, fetched.pacing)
                })
            }
            let streamed = await withTaskCancellationHandler {
                await streamHead.wait()
            } onCancel: {
                fetch.cancel()
            }
            if let (head, relay) = streamed {
                relay.onStop { fetch.cancel() }
                let served = converter.served(head, loaded: loaded)
                return StageAnswer(
                    content: .stream(OutgoingResponse.Head(status: served.status, fields: served.headers), BodyStream(relay), outcome: outcome),
                    source: JournalEntry.Source(kind: .network, detail: host.origin), journaled: request)
            }
            let answer: SessionAnswer
            do {
                answer = try await fetch.value
            } catch {
                // Cancelled by the shutdown deadline or the client leaving: not the upstream's failure.
                if Task.isCancelled {
                    return .cancelled(journaled: request, shutdownTimeout: converter.configuration.limits.shutdownTimeout)
                }
                let failure = error as? UpstreamClient.Failure ?? UpstreamClient.Failure(status: 502, message: "\(error)")
                return StageAnswer(
                    content: .response(ServerCore.plainText(
                        failure.status, failure.message, extra: [HeaderField("Tonearm-Upstream-Error", host.origin)])),
                    source: JournalEntry.Source(kind: .upstreamError, detail: failure.message), journaled: request,
                    logLine: "tonearm: \(request.method) \(request.url): \(failure.message)")
            }
            return converter.answer(answer, for: request, host: host, loaded: loaded)
        }
    }
}
