import Tonearm
import TonearmReplay

/// Answers from the WireMock stub mappings, matched by the path and query as sent (ahead of host-in-path
/// routing), after the mapping's delay and the global fixed delay. A miss is noted for the cassette
/// stage, which reports it for a local request nothing else answers.
struct MappingStage: ResponderStage {
    let stubs: WireMockStubs

    func respond(to request: inout ChainRequest) -> Staged<Answer>? {
        guard !stubs.isEmpty, request.incoming.target.hasPrefix("/") else { return nil }
        let asSent = request.asSent
        let engine = stubs.engine
        let result = Self.patternRankedBeforeExact(asSent, in: engine, stubs: stubs).map(MatchResult.hit) ?? engine.match(asSent)
        switch result {
        case .miss(let report):
            request.mappingMiss = report
            return nil
        case .hit(let hit):
            var delay = hit.track.delay ?? .zero
            if let fixed = stubs.fixedDelay { delay += .milliseconds(fixed) }
            let id = stubs.mappingID(for: hit)
            let content: Answer.Content
            switch hit.track.outcome {
            case .response(let response):
                // Matched-Stub-Id and -Name are part of the stub's response (WireMockMapping).
                content = .response(Self.compressedIfAccepted(response, for: asSent))
            case .transportError(let error):
                content = .fault(error)
            }
            return .now(Answer(
                content: content, source: JournalEntry.Source(kind: .mapping, detail: id),
                journaled: asSent, delay: delay))
        }
    }

    /// The pattern mapping WireMock would choose over the exact mapping the engine finds by key: one
    /// with a lower `priority`, or the same and added later. Exact mappings are found first, in O(1), so
    /// only the rules ranked before the one exact candidate are tried, and none when no rule is
    /// (or the set has no rules: the usual case for large sets costs nothing).
    private static func patternRankedBeforeExact(_ request: Request, in engine: ReplayEngine, stubs: WireMockStubs) -> Hit? {
        guard engine.ruleCount > 0 else { return nil }
        let incoming = engine.incomingRequest(for: request)
        guard let exact = engine.firstTrack(for: incoming), let priority = stubs.enginePriority(ofExactHit: exact) else { return nil }
        return engine.matchRules(incoming, priorityBelow: priority)
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
