import Foundation
import Tonearm
import TonearmURLSession

/// Runs a test body with a session bound to ``TonearmURLSession/TonearmSession/current``, then finishes
/// the session (saving recordings) and reports misses nobody took.
enum SessionScope {
    /// Runs `body` in `session`'s scope; `reportMiss` is called for each miss still pending at the end.
    /// The session is finished even when `body` throws, so recordings made before a failure are kept.
    static func run(
        _ session: TonearmSession, reportMiss: (SessionMiss) -> Void,
        _ body: () async throws -> Void
    ) async throws {
        let outcome: Result<Void, any Error>
        do {
            try await session.scoped { try await body() }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        let finishing = Result { () throws(TonearmError) in try session.finish() }
        for miss in session.takeMisses() { reportMiss(miss) }
        try outcome.get()
        try finishing.get()
    }
}
