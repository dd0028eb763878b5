import Tonearm

/// Answers from the WireMock stub mappings, matched by the path and query as sent (ahead of host-in-path
/// routing), after the mapping's delay and the global fixed delay. A miss is noted for the cassette
/// stage, which reports it for a local request nothing else answers.
struct MappingStage: ResponderStage {
    let stubs: WireMockStubs

    func respond(to request: inout ChainRequest) -> Staged<Answer>? {
        guard !stubs.isEmpty, request.incoming.target.hasPrefix("/") else { return nil }
        let asSent = request.asSent
        switch stubs.engine.match(asSent) {
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
                content = .response(response)
            case .transportError(let error):
                content = .fault(error)
            }
            return .now(Answer(
                content: content, source: JournalEntry.Source(kind: .mapping, detail: id),
                journaled: asSent, delay: delay))
        }
    }
}
