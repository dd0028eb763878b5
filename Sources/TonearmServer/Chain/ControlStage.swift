/// Answers the control API under `/__tonearm/` on NIO's thread pool (loading and saving cassettes read,
/// parse and write files), health probes at once; never journaled.
struct ControlStage: ResponderStage {
    static let name = "Control API"

    let control: ControlAPI

    func respond(to request: ChainRequest) -> StageResult {
        guard case .control(let path, let query) = request.route else { return .passed }
        let incoming = request.incoming
        let answer = { @Sendable [control] in
            StageAnswer(
                content: .response(control.answer(path: path, query: query, request: incoming)),
                source: JournalEntry.Source(kind: .control, detail: path))
        }
        // A health probe is answered at once, never queued behind a cassette being loaded.
        return .answered(ControlAPI.isHealthCheck(method: incoming.method, path: path) ? .now(answer()) : .onThreadPool(answer))
    }
}
