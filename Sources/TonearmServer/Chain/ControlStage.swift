/// Answers the control API under `/__tonearm/` in a task (loading and saving cassettes touch files);
/// never journaled.
struct ControlStage: ResponderStage {
    let control: ControlAPI

    func respond(to request: inout ChainRequest) -> Staged<Answer>? {
        guard case .control(let path, let query) = request.route else { return nil }
        let incoming = request.incoming
        return .later { [control] in
            Answer(
                content: .response(await control.answer(path: path, query: query, request: incoming)),
                source: JournalEntry.Source(kind: .control, detail: path))
        }
    }
}
