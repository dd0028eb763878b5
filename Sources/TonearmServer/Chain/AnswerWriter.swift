import Foundation
import Tonearm

/// The one place an ``Answer`` becomes a reply: it waits out the answer's delay, plays a fault, writes
/// the miss reply, logs, and journals the exchange exactly once.
struct AnswerWriter: Sendable {
    let journal: Journal
    /// The status of miss replies (`--miss-status`).
    let missStatus: Int
    /// `--shutdown-timeout`, named in the answer to a cancelled exchange.
    let shutdownTimeout: Duration
    let log: @Sendable (String) -> Void
    /// Waits out delays on the server's own event loops.
    let timer: LoopTimer

    /// The reply to `request` once `answer` is known and its delay has passed: at once when both are
    /// (no task), else as work for a task.
    func reply(_ answer: Staged<Answer>, for request: ChainRequest) -> Staged<ServerReply> {
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
    private func waitedOut(_ answer: Answer) async -> Answer {
        guard let delay = answer.delay, delay > .zero else { return answer }
        do {
            try await timer.sleep(for: delay)
        } catch {
            return .cancelled(journaled: answer.journaled, shutdownTimeout: shutdownTimeout)
        }
        return answer
    }

    /// The reply for `answer`, logged and journaled.
    private func write(_ answer: Answer, for request: ChainRequest) -> ServerReply {
        if let line = answer.logLine { log(line) }
        switch answer.content {
        case .kept(let kept):
            if let journaled = answer.journaled { journal.append(entry(journaled, .kept(kept), answer, request)) }
            return .kept(kept)
        case .response(let response):
            if let journaled = answer.journaled { journal.append(entry(journaled, .response(response), answer, request)) }
            if let dribble = answer.dribble { return .dribbled(response, reasonPhrase: answer.reasonPhrase, dribble: dribble) }
            if let reasonPhrase = answer.reasonPhrase { return .responseWithReason(response, reasonPhrase: reasonPhrase) }
            if let encoded = answer.encoded { return .replayed(response, encoded: encoded) }
            return .response(response)
        case .fault(let error):
            if let journaled = answer.journaled { journal.append(entry(journaled, .response(nil), answer, request)) }
            return .fault(ConnectionFault(error))
        case .miss(let report, let lookedIn):
            let missed = answer.journaled ?? request.asSent
            log("tonearm: miss \(missed.method) \(missed.url): \(report.reason)")
            let response = MissReply.response(
                for: report, status: missStatus, acceptsJSON: MissReply.acceptsJSON(missed.headers), source: lookedIn)
            if let journaled = answer.journaled {
                journal.append(entry(journaled, .response(response), answer, request), miss: ServerMiss(time: Date(), request: missed, report: report))
            }
            return .response(response)
        case .tunnel(let host):
            // The tunnel itself is not an exchange: the requests inside it are journaled one by one.
            return .tunnel(host)
        }
    }

    private func entry(
        _ journaled: Request, _ response: JournalEntry.StoredResponse, _ answer: Answer, _ request: ChainRequest
    ) -> JournalEntry {
        var entry = JournalEntry(
            time: request.time, request: journaled, response: response, source: answer.source,
            latency: ContinuousClock.now - request.started)
        entry.keepsWholeBodies = answer.keepsWholeBodies
        return entry
    }
}
