/// Answers an intercepted `CONNECT` (routing decided it may be: an allowed host, or one the replayed
/// cassette has) by opening the tunnel; the connection then terminates TLS and reads the requests inside.
struct TunnelStage: ResponderStage {
    static let name = "Tunnel"

    func respond(to request: ChainRequest) -> StageResult {
        guard case .tunnel(let host) = request.route else { return .passed }
        return .answered(.now(StageAnswer(
            content: .tunnel(host), source: JournalEntry.Source(kind: .network, detail: host.origin), journaled: nil)))
    }
}
