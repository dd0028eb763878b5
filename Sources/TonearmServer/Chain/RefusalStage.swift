import Tonearm

/// Answers the requests routing refuses before any matching (CONNECT, a host not allowed, a target
/// that is neither a path nor an absolute URL), saying what to do instead.
struct RefusalStage: ResponderStage {
    static let name = "Refusal"

    func respond(to request: ChainRequest) -> StageResult {
        guard case .refused(let status, let message) = request.route else { return .passed }
        // The message goes in a header too: a response to CONNECT carries no body.
        let response = ServerCore.plainText(status, message, extra: [HeaderField("Tonearm-Refused", message)])
        return .answered(.now(StageAnswer(
            content: .response(response), source: JournalEntry.Source(kind: .refused, detail: message),
            journaled: request.asSent,
            logLine: "tonearm: refused \(request.incoming.method) \(request.incoming.target): \(message)")))
    }
}
