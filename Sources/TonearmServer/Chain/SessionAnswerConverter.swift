import Tonearm
import TonearmReplay

/// What the cassette's replay session decided, as a ``StageAnswer``: a replay (with its delay), a miss, or
/// the network's response; responses with URLs rewritten when the server rewrites them. The cassette
/// stage answers with it at once and after a fetch, which may end in a replay of what an identical
/// request recorded.
struct SessionAnswerConverter: Sendable {
    let configuration: ServerConfiguration
    let address: ServerAddress

    func answer(_ answer: SessionAnswer, for request: Request, host: UpstreamHost?, loaded: LoadedCassette) -> StageAnswer {
        switch answer {
        case .replayed(let hit):
            // A rewritten answer depends on more than what answered, so its encoding is not kept.
            if !configuration.rewritesURLs, let kept = loaded.encodedResponses.kept(for: hit.source) {
                return StageAnswer(content: .kept(kept), source: kept.source, journaled: request, delay: kept.delay)
            }
            let source = loaded.engine.source(of: hit)
            let track = hit.track
            if track.hasWebSocketConversation {
                // A plain request with a WebSocket's key: its 101 would leave the client waiting for frames.
                let message = "\(request.url) was recorded as a WebSocket: open it with a WebSocket handshake (Upgrade: websocket)"
                return StageAnswer(
                    content: .response(ServerCore.plainText(426, message, extra: [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade")])),
                    source: source, journaled: request)
            }
            switch track.outcome {
            case .response(let response):
                if let recorded = track.pacing {
                    // A paced answer is written part by part, never from kept bytes.
                    return StageAnswer(
                        content: .response(served(response, loaded: loaded)), source: source, journaled: request, delay: track.delay,
                        pacing: configuration.streamPacing.apply(to: recorded).map(AnswerPacing.recorded))
                }
                return StageAnswer(
                    content: .response(served(response, loaded: loaded)), source: source, journaled: request, delay: track.delay,
                    encoded: configuration.rewritesURLs ? nil : loaded.encodedResponses.slot(for: hit, delay: track.delay, source: source))
            case .transportError(let error):
                return StageAnswer(
                    content: .fault(error), source: JournalEntry.Source(kind: .fault, detail: "\(source.detail): \(error)"),
                    journaled: request, delay: track.delay)
            }
        case .missed(let report):
            return .miss(StageMiss(report: report, lookedIn: lookedIn(loaded), request: request))
        case .fetched(let response):
            return StageAnswer(
                content: .response(served(response, loaded: loaded)),
                source: JournalEntry.Source(kind: .network, detail: host?.origin ?? "network"), journaled: request)
        }
    }

    /// What a miss in `loaded` looked in, as the miss reply names it.
    func lookedIn(_ loaded: LoadedCassette) -> String {
        loaded.url.map { "cassette \($0.path)" } ?? "the loaded rules"
    }

    /// The response as sent to the client: URLs rewritten when asked (cassettes keep the upstream's bytes).
    func served(_ response: Response, loaded: LoadedCassette) -> Response {
        guard configuration.rewritesURLs else { return response }
        return URLRewriter(hosts: configuration.allowedHosts + loaded.trackHosts, serverURL: address.url).rewrite(response)
    }
}
