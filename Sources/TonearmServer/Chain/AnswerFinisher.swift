import Foundation
import Tonearm

/// The one place a ``StageAnswer`` becomes an ``OutgoingResponse``: it waits out the answer's delay, makes
/// the miss reply, logs, and journals the exchange exactly once. It writes nothing: ``ResponseWriter``
/// does, on the connection.
struct AnswerFinisher: Sendable {
    let journal: Journal
    /// The status of miss replies (`--miss-status`).
    let missStatus: Int
    /// `--shutdown-timeout`, named in the answer to a cancelled exchange.
    let shutdownTimeout: Duration
    let log: @Sendable (String) -> Void
    /// Waits out delays on the server's own event loops.
    let timer: LoopTimer

    /// The outgoing response to `request` once `answer` is known and its delay has passed: at once when both are
    /// (no task), else as work for a task.
    func reply(_ answer: Staged<StageAnswer>, for request: ChainRequest) -> Staged<OutgoingResponse> {
        switch answer {
        case .now(let answer):
            guard let delay = answer.delay, delay > .zero else { return .now(write(answer, for: request)) }
            return .later { write(await waitedOut(answer), for: request) }
        case .later(let work):
            return .later { write(await waitedOut(await work()), for: request) }
        }
    }

    /// `answer` once its delay (a track's or a mapping's) has passed, or the cancelled answer when the
    /// exchange is cancelled meanwhile (the shutdown timeout passed, the client left): a stopping server
    /// must not wait out a long delay.
    private func waitedOut(_ answer: StageAnswer) async -> StageAnswer {
        guard let delay = answer.delay, delay > .zero else { return answer }
        do {
            try await timer.sleep(for: delay)
        } catch {
            return .cancelled(journaled: answer.journaled, shutdownTimeout: shutdownTimeout)
        }
        return answer
    }

    /// The outgoing response for `answer`, logged and journaled.
    private func write(_ answer: StageAnswer, for request: ChainRequest) -> OutgoingResponse {
        if let line = answer.logLine { log(line) }
        switch answer.content {
        case .kept(let kept):
            if let journaled = answer.journaled { journal.append(entry(journaled, .kept(kept), answer, request)) }
            return OutgoingResponse(message: .kept(kept), ending: .keepAlive)
        case .response(let response):
            if let journaled = answer.journaled {
                var entry = entry(journaled, .response(response), answer, request)
                if let pacing = answer.pacing { entry.setStream(pacing: pacing.parts(forBodyCount: response.body.count), webSocket: nil) }
                journal.append(entry)
            }
            guard let pacing = answer.pacing, !response.body.isEmpty else {
                return OutgoingResponse(response, reasonPhrase: answer.reasonPhrase, keep: answer.encoded, chunked: answer.chunked)
            }
            return OutgoingResponse(
                message: .parts(
                    OutgoingResponse.Head(status: response.status, reasonPhrase: answer.reasonPhrase, fields: response.headers),
                    .stream(.paced(response.body, pacing.parts(forBodyCount: response.body.count))), keep: nil),
                ending: .keepAlive)
        case .fault(let error):
            if let journaled = answer.journaled { journal.append(entry(journaled, .response(nil), answer, request)) }
            return .fault(ConnectionFault(error))
        case .miss(let miss, let alsoMissed):
            let missed = answer.journaled ?? request.asSent
            log("tonearm: miss \(missed.method) \(missed.url): \(miss.report.reason)")
            let response = MissResponse.response(
                for: miss, alsoMissed: alsoMissed, status: missStatus, acceptsJSON: MissResponse.acceptsJSON(missed.headers))
            if let journaled = answer.journaled {
                journal.append(
                    entry(journaled, .response(response), answer, request),
                    miss: ServerMiss(
                        time: Date(), request: missed, report: miss.report, lookedIn: miss.lookedIn, peer: request.incoming.peer))
            }
            return OutgoingResponse(response)
        case .stream(let head, let stream, let outcome):
            // A relayed upstream stream is journaled by its head, the entry completed with the whole body
            // once it has ended; the inspector's own feed is not journaled.
            if let journaled = answer.journaled {
                let sequence = journal.appendStreamHead(entry(journaled, .response(Response(status: head.status, headers: head.fields)), answer, request))
                let journal = journal
                outcome?.whenEnded { journal.complete(sequence, with: $0) }
            }
            return OutgoingResponse(message: .parts(head, .stream(stream), keep: nil), ending: .keepAlive)
        case .tunnel(let host):
            // The tunnel itself is not an exchange: the requests inside it are journaled one by one.
            return .tunnel(to: host)
        case .webSocket(let head, let plan):
            // The handshake is journaled at once, completed with the conversation once the socket has
            // ended; a client message the replay has no answer for is a miss of its own.
            let upgrade = answer.journaled ?? request.asSent
            let sequence = journal.appendStreamHead(entry(upgrade, .response(Response(status: head.status, headers: head.fields)), answer, request))
            let journal = journal, log = log
            plan.outcome.whenEnded { journal.complete(sequence, with: $0) }
            let reporting = plan.reporting { miss, report in
                log("tonearm: miss \(upgrade.url): WebSocket \(miss.reason)")
                journal.append(
                    JournalEntry(
                        time: Date(), request: report.request, response: .response(nil),
                        source: JournalEntry.Source(kind: .miss, detail: "WebSocket: \(miss.reason)"), latency: .zero),
                    miss: ServerMiss(time: Date(), request: report.request, report: report, lookedIn: "the WebSocket conversation of \(upgrade.url)"))
            }
            return OutgoingResponse(message: .parts(head, .none, keep: nil), ending: .webSocket(reporting))
        }
    }

    private func entry(
        _ journaled: Request, _ response: JournalEntry.StoredResponse, _ answer: StageAnswer, _ request: ChainRequest
    ) -> JournalEntry {
        var entry = JournalEntry(
            time: request.time, request: journaled, response: response, source: answer.source,
            latency: ContinuousClock.now - request.started)
        entry.keepsWholeBodies = answer.keepsWholeBodies
        entry.peer = request.incoming.peer
        return entry
    }
}
