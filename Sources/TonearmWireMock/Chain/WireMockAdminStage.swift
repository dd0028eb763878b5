import TonearmServer
/// Answers WireMock's admin API under `/__admin/` on NIO's thread pool: its calls compile patterns and
/// templates, read and write mapping files and list whole journals, any of which would hold up the other
/// connections of the event loop that read the call. Health probes are answered at once. Never journaled.
struct WireMockAdminStage: ResponderStage {
    static let name = "WireMock admin"

    let admin: WireMockAdmin

    func respond(to request: ChainRequest) -> StageResult {
        guard case .extensionAPI(let path, let query) = request.route else { return .passed }
        let incoming = request.incoming
        let answer = { @Sendable [admin] in
            StageAnswer(
                content: .response(admin.answer(path: path, query: query, request: incoming)),
                source: JournalEntry.Source(kind: .admin, detail: path))
        }
        // A readiness probe (Testcontainers polls `/__admin/health`) is answered at once.
        let isHealthCheck = path == "health" && incoming.method.uppercased() == "GET"
        return .answered(isHealthCheck ? .now(answer()) : .onThreadPool(answer))
    }
}
