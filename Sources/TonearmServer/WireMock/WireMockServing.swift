import Foundation
import Tonearm

/// What the stub mappings make of a request.
enum MappingAnswer: Sendable {
    /// A mapping answers.
    case answered(Hit, mappingID: String)
    /// None does; the report lists the closest exact mappings.
    case missed(MissReport)
}

extension ServerCore {
    /// Matches `request` against the stub mappings, by the path and query it was sent with.
    func answerFromMappings(_ request: ServerRequest) -> MappingAnswer {
        let asSent = Request(method: request.method, url: request.target, headers: request.headers, body: request.body)
        switch wireMock.engine.match(asSent) {
        case .hit(let hit): return .answered(hit, mappingID: wireMock.mappingID(for: hit))
        case .miss(let report): return .missed(report)
        }
    }

    /// Plays a mapping's answer (after its delay and the global fixed delay) and journals it.
    func serveMapping(_ answer: MappingAnswer, request: ServerRequest, started: ContinuousClock.Instant, time: Date) async -> ServerReply {
        guard case .answered(let hit, let id) = answer else { return .response(Response(status: 500)) }
        var delay = hit.track.delay ?? .zero
        if let fixed = wireMock.fixedDelay { delay += .milliseconds(fixed) }
        var outcome = switch hit.track.outcome {
        case .response(let answer): Outcome(reply: .response(answer), source: JournalEntry.Source(kind: "mapping", detail: id))
        case .transportError(let error): Outcome(reply: .fault(ConnectionFault(error)), source: JournalEntry.Source(kind: "mapping", detail: id))
        }
        if delay > .zero {
            do { try await Task.sleep(for: delay) } catch { outcome = cancelledInFlight }
        }
        let response: Response? = if case .response(let response) = outcome.reply { response } else { nil }
        let journaled = Request(method: request.method, url: request.target, headers: request.headers, body: request.body)
        journal.append(JournalEntry(
            time: time, request: journaled, response: response, source: outcome.source, latency: ContinuousClock.now - started))
        return outcome.reply
    }

    /// The miss answer for a local request no mapping (and nothing else) answers, with the mappings' report.
    func mappingMissReply(_ report: MissReport, request: Request) -> Outcome {
        configuration.log("tonearm: miss \(request.method) \(request.url): \(report.reason)")
        let response = MissReply.response(
            for: report, status: configuration.missStatus, acceptsJSON: MissReply.acceptsJSON(request.headers),
            source: "the stub mappings")
        return Outcome(
            reply: .response(response), source: JournalEntry.Source(kind: "miss", detail: report.reason.description),
            miss: ServerMiss(time: Date(), request: request, report: report))
    }
}
