import Tonearm

/// Answers from the cassette in force, deciding as its replay session does for URLSession: a replay, a
/// miss, or (leaving a ``ChainRequest/PendingFetch`` for the ``UpstreamStage``) the network.
struct CassetteStage: ResponderStage {
    static let name = "Cassette"

    let answers: CassetteAnswers

    func respond(to request: inout ChainRequest) -> Staged<StageAnswer>? {
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
            return nil
        }
        guard let host else {
            guard loaded.mode.replays else {
                let message = "no upstream for \(forwarded.url): give the host as the first path component or start the server with --upstream"
                return .now(StageAnswer(
                    content: .response(ServerCore.plainText(404, message)), source: JournalEntry.Source(kind: .refused, detail: message),
                    journaled: forwarded))
            }
            let answer = answers.answer(loaded.session.answerWithoutNetwork(to: forwarded), for: forwarded, host: nil, loaded: loaded)
            // Nothing else answers a local path either: the mappings' report says what came closest.
            if case .local = request.route, case .miss = answer.content, let mappingMiss = request.mappingMiss {
                return .now(.miss(mappingMiss, lookedIn: "the stub mappings", request: forwarded))
            }
            return .now(answer)
        }
        switch loaded.session.decide(forwarded) {
        case .answered(let answer):
            return .now(answers.answer(answer, for: forwarded, host: host, loaded: loaded))
        case .fetch(let report):
            request.fetch = ChainRequest.PendingFetch(request: forwarded, host: host, report: report)
            return nil
        }
    }
}
