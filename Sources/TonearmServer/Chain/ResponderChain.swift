/// One step of the request path: it answers a request, or passes it on to the next stage.
///
/// A stage answers from what it holds and what the request carries, with no side effect but the notes
/// it leaves in the request for later stages; delays, the journal and the log are the
/// ``AnswerFinisher``'s. A stage answers `.now` when it can without waiting, so replays and misses are
/// answered on the connection's thread without a task.
protocol ResponderStage: Sendable {
    /// The stage's name in docs/server.md's list of stages ("How a request flows through the server"),
    /// which a test checks against the chain's order.
    static var name: String { get }

    /// The stage's answer to `request`, or `nil` to pass it on.
    func respond(to request: inout ChainRequest) -> Staged<StageAnswer>?
}

/// The request path: stages tried in order, the first answer wins, as ``Strategy/chain(_:)`` tries
/// strategies. The server's order is in ``ServerCore``; docs/server.md describes it.
struct ResponderChain: Sendable {
    let stages: [any ResponderStage]

    /// The first stage's answer, or a 404 naming the request when every stage passes (the server's
    /// chain ends with stages that answer every request they are given, so this is a safety net).
    func answer(_ request: inout ChainRequest) -> Staged<StageAnswer> {
        // By index: `for stage in stages` copies each existential (a retain and release per stage per request).
        for index in stages.indices {
            if let answer = stages[index].respond(to: &request) { return answer }
        }
        let message = "nothing in this server answers \(request.incoming.method) \(request.incoming.target)"
        return .now(StageAnswer(
            content: .response(ServerCore.plainText(404, message)), source: JournalEntry.Source(kind: .refused, detail: message),
            journaled: request.asSent))
    }
}
