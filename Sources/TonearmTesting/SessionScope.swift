import Foundation
import Testing
import Tonearm
import TonearmURLSession

/// Runs a test body with a session bound to `TonearmURLSession/TonearmSession/current`, then finishes
/// the session (saving recordings) and reports misses nobody reported yet.
enum SessionScope {
    /// Runs `test`'s body in `session`'s scope. Each miss is recorded as an issue at `sourceLocation`,
    /// in the task that made the request when it is known (so `withKnownIssue` around the request absorbs
    /// it), else when the body returns. The session is finished even when `body` throws, so recordings
    /// made before a failure are kept. Then, as ``NetworkAttachments`` says, the misses and exchanges are
    /// attached to the test's report.
    static func run(
        _ session: TonearmSession, for test: Test, testCase: Test.Case?, sourceLocation: SourceLocation,
        _ body: @Sendable () async throws -> Void
    ) async throws {
        let attachments = try NetworkAttachments.resolve(for: test, environment: ProcessInfo.processInfo.environment)
        let reportMiss: @Sendable (SessionMiss) -> Void = { miss in
            Issue.record(Comment(rawValue: miss.description), sourceLocation: sourceLocation)
        }
        session.replaySession.reportMissesInRequestingTask(reportMiss)
        session.replaySession.describeTest(filter: filter(for: test))
        let outcome: Result<Bool, any Error>
        do {
            outcome = .success(try await FailureWatch.run(for: test, testCase: testCase) {
                try await session.scoped { try await body() }
            })
        } catch {
            outcome = .failure(error)
        }
        let finishing = Result { () throws(TonearmError) in try session.finish() }
        for miss in session.replaySession.takeUnreportedMisses() { reportMiss(miss) }
        let failed = (try? outcome.get()) != false || !session.replaySession.misses.isEmpty
        if attachments.attaches(failed: failed) {
            NetworkReport(testName: CassetteLocation.baseName(test.name), session: session.replaySession).record(sourceLocation: sourceLocation)
        }
        _ = try outcome.get()
        try finishing.get()
    }

    /// The `swift test --filter` argument that selects `test` alone: its suites and function name,
    /// `Suite/test` (the filter is a regular expression over `Module.Suite/test()`).
    static func filter(for test: Test) -> String {
        var components = test.id.nameComponents
        if let last = components.popLast() {
            components.append(String(last.prefix { $0 != "(" }))
        }
        return components.joined(separator: "/")
    }
}
