/// Answers the inspector's page, API and event feed under `/__tonearm/inspector/` (``Inspector``),
/// behind the control-plane guard and before the control API; never journaled. Reading is answered at
/// once; what writes files or reaches the network runs in a task.
struct InspectorStage: ResponderStage {
    static let name = "Inspector"

    let inspector: Inspector

    func respond(to request: ChainRequest) -> StageResult {
        guard case .control(let path, let query) = request.route, Self.isInspector(path) else { return .passed }
        let incoming = request.incoming
        let source = JournalEntry.Source(kind: .control, detail: path)
        if inspector.isFeed(path: path, method: incoming.method) {
            let (head, stream) = inspector.feed(query: query, headers: incoming.headers)
            return .answered(.now(StageAnswer(content: .stream(head, stream, outcome: nil), source: source)))
        }
        return .answered(inspector.respond(path: path, query: query, request: incoming).map { response in
            StageAnswer(content: .response(response), source: source)
        })
    }

    /// Whether a control path (after `/__tonearm/`) is the inspector's.
    static func isInspector(_ path: String) -> Bool {
        path.hasPrefix(Inspector.pathPrefix) && (path.utf8.count == Inspector.pathPrefix.utf8.count || path.dropFirst(Inspector.pathPrefix.count).hasPrefix("/"))
    }
}
