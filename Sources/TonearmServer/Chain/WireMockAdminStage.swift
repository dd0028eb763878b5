/// Answers WireMock's admin API under `/__admin/` on the connection's thread (its calls only read and
/// change memory); never journaled.
struct WireMockAdminStage: ResponderStage {
    let admin: WireMockAdmin

    func respond(to request: inout ChainRequest) -> Staged<Answer>? {
        guard let route = WireMockAdmin.route(request.incoming.target) else { return nil }
        let response = admin.answer(path: route.path, query: route.query, request: request.incoming)
        return .now(Answer(content: .response(response), source: JournalEntry.Source(kind: .admin, detail: route.path)))
    }
}
