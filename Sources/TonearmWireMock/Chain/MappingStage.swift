import Tonearm
import TonearmServer
import TonearmReplay

/// Answers from the WireMock stub mappings, matched by the path and query as sent (ahead of host-in-path
/// routing), after the mapping's delay (fixed, and drawn from its distribution) and the global fixed
/// delay; a templated response is rendered for the request, a `statusMessage` sent as the reason
/// phrase, a `chunkedDribbleDelay` body written in parts, and a `proxyBaseUrl` mapping's request sent on
/// to its upstream in a task. A miss of a local request (a path, not an upstream's URL) goes to the
/// chain, which reports it when nothing else answers.
struct MappingStage: ResponderStage {
    static let name = "Stub mappings"

    let stubs: WireMockStubs
    /// Sends the requests of `proxyBaseUrl` mappings on (the server's one upstream client); a stage
    /// without one answers them 502 rather than with the mapping's fixed response.
    var proxyClient: UpstreamClient?
    /// `--shutdown-timeout`, named in the answer to a proxied exchange cancelled in flight.
    var shutdownTimeout: Duration = .seconds(5)
    /// The most bytes a request body may inflate to (the server's body limit): a gzip body is matched
    /// inflated, as WireMock matches it, and a small one must not grow the server without bound.
    var maximumBodySize = ServerConfiguration.Limits().maximumBodySize

    func respond(to request: ChainRequest) -> StageResult {
        guard !stubs.isEmpty, request.incoming.target.hasPrefix("/") else { return .passed }
        var asSent = request.asSent
        if ContentDecoding.isGzip(asSent.headers) {
            // WireMock 2.35.1 inflates a gzip body (not a deflate one) before its body matchers run, and
            // journals it so.
            switch ContentDecoding.inflate(asSent.body, limit: maximumBodySize) {
            case .bytes(let inflated):
                asSent.body = inflated
            case .corrupt:
                return Self.refusal(400, "tonearm: the request body is not the gzip data its Content-Encoding names", journaling: asSent)
            case .tooLarge:
                return Self.refusal(413, "tonearm: the request body inflates to more than \(maximumBodySize) bytes", journaling: asSent)
            }
        }
        let engine = stubs.engine
        // `clientIp` mappings match on the client's address, carried in a field only they read.
        let matched = stubs.readsClientAddress ? asSent.withClientAddress(request.incoming.peer) : asSent
        var result = engine.ruleCount > 0 ? Self.rankedMatch(engine.incomingRequest(for: matched), in: engine, stubs: stubs) : engine.match(matched)
        if case .miss = result, let asJSON = Self.bodyReadAsJSON(matched, in: engine), engine.firstTrack(for: asJSON) != nil {
            result = engine.ruleCount > 0 ? Self.rankedMatch(asJSON, in: engine, stubs: stubs) : engine.match(asJSON)
        }
        switch result {
        case .miss(let report):
            // A request for an upstream is the cassette's and the network's: only a local one's miss is
            // worth reporting, ahead of the cassette's.
            guard case .local = request.route else { return .passed }
            return .missed(StageMiss(report: report, lookedIn: StageMiss.stubMappings, request: asSent))
        case .hit(let hit):
            let track = hit.track
            var delay = track.delay ?? .zero
            delay += stubs.globalSettings.delay()
            let id = stubs.mappingID(for: hit, track: track)
            let settings = stubs.responseSettings(id)
            if let drawn = settings?.delay?.sample() { delay += drawn }
            if let proxy = settings?.proxy, case .response(let held) = track.outcome {
                guard let proxyClient else {
                    let refusal = ServerCore.plainText(502, "tonearm: this server has no upstream client for proxyBaseUrl mappings")
                    return .answered(.now(StageAnswer(
                        content: .response(refusal), source: JournalEntry.Source(kind: .mapping, detail: id), journaled: asSent)))
                }
                return .answered(proxied(asSent, through: proxy, client: proxyClient, held: held, id: id, delay: delay, settings: settings))
            }
            let content: StageAnswer.Content
            var chunked = false
            switch track.outcome {
            case .response(let response):
                // Matched-Stub-Id and -Name are part of the stub's response (WireMockMapping).
                let rendered = Self.compressedIfAccepted(settings.map { $0.rendered(response, for: asSent, clientAddress: request.incoming.clientAddress) } ?? response, for: asSent)
                // WireMock sends a stub's answer chunked unless the stub sets its Content-Length (checked
                // against the jar); a HEAD keeps the length of the body it does not get.
                chunked = asSent.method != "HEAD" && rendered.headers.first(named: "Content-Length") == nil
                content = .response(rendered)
            case .transportError(let error):
                content = .fault(error)
            }
            return .answered(.now(StageAnswer(
                content: content, source: JournalEntry.Source(kind: .mapping, detail: id),
                journaled: asSent, delay: delay, reasonPhrase: settings?.statusMessage, pacing: settings?.dribble.map(AnswerPacing.dribble),
                chunked: chunked)))
        }
    }

    /// A request refused before matching: `status` and `message` as plain text, journaled as refused.
    private static func refusal(_ status: Int, _ message: String, journaling request: Request) -> StageResult {
        .answered(.now(StageAnswer(
            content: .response(ServerCore.plainText(status, message)), source: JournalEntry.Source(kind: .refused, detail: message),
            journaled: request)))
    }

    /// The answer of `proxy`'s upstream to `request`, in a task (a failure is a 502 or 504 saying which
    /// upstream and naming the mapping, as the network stage answers).
    private func proxied(
        _ request: Request, through proxy: WireMockProxy, client: UpstreamClient, held: Response, id: String, delay: Duration,
        settings: WireMockResponseSettings?
    ) -> Staged<StageAnswer> {
        let naming = held.headers.filter { $0.name.hasPrefix("Matched-Stub-") }
        let source = JournalEntry.Source(kind: .mapping, detail: id)
        let shutdownTimeout = shutdownTimeout
        return .later {
            let upstream = proxy.upstreamRequest(for: request)
            let fetched: Response
            do throws(UpstreamClient.Failure) {
                fetched = try await client.fetch(upstream)
            } catch {
                // Cancelled by the shutdown deadline or the client leaving: not the upstream's failure.
                if Task.isCancelled { return .cancelled(journaled: request, shutdownTimeout: shutdownTimeout) }
                let message = error.message
                return StageAnswer(
                    content: .response(ServerCore.plainText(error.status, message, extra: [HeaderField("Tonearm-Upstream-Error", proxy.base)] + naming)),
                    source: source, journaled: request, delay: delay, logLine: "tonearm: \(request.method) \(request.url) via \(proxy.base): \(message)")
            }
            // The upstream's answer as it came: WireMock adds no Matched-Stub-Id or -Name to a proxied
            // answer (checked against the jar), and recordings then hold the upstream's headers only.
            return StageAnswer(
                content: .response(fetched), source: source, journaled: request, delay: delay,
                reasonPhrase: settings?.statusMessage, pacing: settings?.dribble.map(AnswerPacing.dribble), keepsWholeBodies: true)
        }
    }

    /// `request` keyed with its body read as JSON, when it was not (no JSON `Content-Type`) and the body
    /// looks like JSON: WireMock's `equalToJson` parses any body, where the key reads one as JSON only
    /// when its type says so. Tried only after a miss, and taken only when an exact mapping has that
    /// key, so a request that matches as sent never pays for it. The key holds no header (the mappings'
    /// header matchers are rules, which see the request as sent), so only the body's reading changes.
    private static func bodyReadAsJSON(_ request: Request, in engine: ReplayEngine) -> IncomingRequest? {
        // JSON's whitespace: space, tab, line feed, carriage return (RFC 8259 §2).
        guard let first = request.body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        if let contentType = request.headers.first(named: "Content-Type"), MediaType.isJSON(contentType) { return nil }
        var typed = request
        typed.headers.removeAll { $0.name.equalsIgnoringASCIICase("Content-Type") }
        typed.headers.append(HeaderField("Content-Type", "application/json"))
        let keyed = engine.incomingRequest(for: typed)
        return IncomingRequest(request: request, canonical: keyed.canonical, key: keyed.key)
    }

    /// The answer in WireMock's order when the set has pattern mappings: a pattern mapping with a lower
    /// `priority` than the exact mapping found by key, or the same and added later, answers instead of
    /// it. Exact mappings are found first, in O(1), so only the rules ranked before the one exact
    /// candidate are tried; the request's canonical form is worked out once for both. (A set without
    /// pattern mappings, the usual large one, takes the engine's key-only path instead.)
    private static func rankedMatch(_ incoming: IncomingRequest, in engine: ReplayEngine, stubs: WireMockStubs) -> MatchResult {
        if let exact = engine.firstTrack(for: incoming), let priority = stubs.enginePriority(ofExactHit: exact),
            let ranked = engine.matchRules(incoming, priorityBelow: priority) {
            return .hit(ranked)
        }
        return engine.match(incoming)
    }

    /// `response` gzipped when the client accepts gzip, as WireMock answers from its stubs (checked
    /// against the jar: any method and body size; not when the stub sets its own `Content-Encoding`, nor
    /// for content that is compressed already, such as images).
    static func compressedIfAccepted(_ response: Response, for request: Request) -> Response {
        guard let accepted = request.headers.first(named: "Accept-Encoding"), GzipEncoding.accepts(accepted),
            !response.body.isEmpty, response.headers.first(named: "Content-Encoding") == nil,
            !isCompressedAlready(response.headers.first(named: "Content-Type")),
            let compressed = GzipEncoding.compress(response.body)
        else { return response }
        var gzipped = response
        gzipped.body = compressed
        gzipped.headers.removeAll { $0.name.equalsIgnoringASCIICase("Content-Length") }
        gzipped.headers.append(HeaderField("Content-Encoding", "gzip"))
        gzipped.headers.append(HeaderField("Vary", "Accept-Encoding"))
        return gzipped
    }

    /// Media that compress no further (Jetty's gzip handler, which WireMock uses, leaves them alone).
    private static func isCompressedAlready(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        if type.hasPrefix("image/") { return !type.hasPrefix("image/svg") }
        return type.hasPrefix("audio/") || type.hasPrefix("video/")
            || ["application/gzip", "application/x-gzip", "application/zip", "application/x-compress", "application/x-bzip2", "application/brotli"]
                .contains { type.hasPrefix($0) }
    }
}
