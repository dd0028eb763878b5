import Tonearm
import TonearmReplay

/// Answers a request the cassette stage sent to the network: fetched (and recorded when the mode
/// records) through the cassette's replay session, in a task.
struct UpstreamStage: ResponderStage {
    static let name = "Upstream"

    let client: UpstreamClient
    let answers: CassetteAnswers

    func respond(to request: inout ChainRequest) -> Staged<StageAnswer>? {
        guard let fetch = request.fetch else { return nil }
        let loaded = request.cassette
        return .later { [client, answers] in
            let answer: SessionAnswer
            do {
                answer = try await loaded.session.fetch(fetch.request, missed: fetch.report) { request in
                    try await client.fetch(request)
                }
            } catch {
                // Cancelled by the shutdown deadline or the client leaving: not the upstream's failure.
                if Task.isCancelled {
                    return .cancelled(journaled: fetch.request, shutdownTimeout: answers.configuration.shutdownTimeout)
                }
                let failure = error as? UpstreamClient.Failure ?? UpstreamClient.Failure(status: 502, message: "\(error)")
                return StageAnswer(
                    content: .response(ServerCore.plainText(
                        failure.status, failure.message, extra: [HeaderField("Tonearm-Upstream-Error", fetch.host.origin)])),
                    source: JournalEntry.Source(kind: .upstreamError, detail: failure.message), journaled: fetch.request,
                    logLine: "tonearm: \(fetch.request.method) \(fetch.request.url): \(failure.message)")
            }
            return answers.answer(answer, for: fetch.request, host: fetch.host, loaded: loaded)
        }
    }
}
