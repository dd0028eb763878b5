/// One step of the request path: it answers a request, reports a miss, or passes it on.
///
/// A stage answers from what it holds and what the request carries, with no side effect: it never
/// leaves notes in the request for later stages, and the misses it finds it returns to the chain.
/// Delays, the journal and the log are the ``AnswerFinisher``'s. A stage answers `.now` when it can
/// without waiting, so replays and misses are answered on the connection's thread without a task.
package protocol ResponderStage: Sendable {
    /// The stage's name in docs/server.md's list of stages ("How a request flows through the server"),
    /// which a test checks against the chain's order.
    static var name: String { get }

    /// What the stage makes of `request`.
    func respond(to request: ChainRequest) -> StageResult
}

/// The request path: stages tried in order, the first answer wins, as ``Strategy/chain(_:)`` tries
/// strategies. The server's order is in ``ServerCore``; docs/server.md describes it.
struct ResponderChain: Sendable {
    let stages: [any ResponderStage]

    /// The first stage's answer; when none answers, the miss reply for the misses the stages reported
    /// (the first reported leads; the others are named after it), or a 404 naming the request when
    /// every stage passed (the server's chain ends with a stage that looks up every request it is
    /// given, so this is a safety net).
    func answer(_ request: ChainRequest) -> Staged<StageAnswer> {
        // Empty until a stage misses: a hit allocates nothing for it.
        var misses: [StageMiss] = []
        // By index: `for stage in stages` copies each existential (a retain and release per stage per request).
        for index in stages.indices {
            switch stages[index].respond(to: request) {
            case .answered(let answer): return answer
            case .missed(let miss): misses.append(miss)
            case .passed: continue
            }
        }
        if let first = misses.first { return .now(.miss(first, alsoMissed: Array(misses.dropFirst()))) }
        let message = "nothing in this server answers \(request.incoming.method) \(request.incoming.target)"
        return .now(StageAnswer(
            content: .response(ServerCore.plainText(404, message)), source: JournalEntry.Source(kind: .refused, detail: message),
            journaled: request.asSent))
    }
}
