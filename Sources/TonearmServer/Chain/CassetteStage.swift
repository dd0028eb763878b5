import NIOPosix
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
        case .control, .admin, .refused, .tunnel:
            return .passed
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
            // On the connection's event loop, as the answering task is (an unstructured task would not
            // inherit its preference): a host whose cooperative threads are all busy must not starve the
            // upstream exchange or its deadline.
            let loop = MultiThreadedEventLoopGroup.currentEventLoop
            let fetch = Task(executorPreference: loop.map { EventLoopExecutor($0) } ?? globalConcurrentExecutor) {
                defer { streamHead.fetchEnded() }
                return try await loaded.session.fetch(request, missed: report, fromPaced: { request in
                    let fetched = try await client.fetch(request) { head in
                        let relay = StreamRelay()
                        streamHead.deliver(head, relay: relay)
                        return relay
                    }
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
                    content: .stream(OutgoingResponse.Head(status: served.status, fields: served.headers), BodyStream(relay)),
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
