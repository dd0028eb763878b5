import Tonearm

/// Refuses the control and admin requests the ``ControlPlaneGuard`` does not let through (another web
/// page, a rebound `Host`, a missing token, a body a browser sends without a preflight), in front of
/// an extension's API stage (WireMock's admin API) and the ``ControlStage``. Its refusals are logged but never journaled: the
/// journal is about the app's traffic, and they are not.
struct ControlPlaneGuardStage: ResponderStage {
    static let name = "Control-plane guard"

    /// The guard as configured; its port is the address's, known only once the server is bound.
    let configured: ControlPlaneGuard
    let address: ServerAddress

    func respond(to request: ChainRequest) -> StageResult {
        guard request.route.isControlPlane else { return .passed }
        let incoming = request.incoming
        var checks = configured
        checks.port = address.port
        checks.httpsPort = address.httpsPort
        guard let refusal = checks.refusal(for: incoming) else { return .passed }
        return .answered(.now(StageAnswer(
            content: .response(ServerCore.plainText(refusal.status, refusal.message, extra: refusal.headers)),
            source: JournalEntry.Source(kind: .refused, detail: refusal.message),
            logLine: "tonearm: refused \(incoming.method) \(incoming.target): \(refusal.message)")))
    }
}
