import Foundation
import Synchronization
import Testing
import Tonearm
import TonearmCassettes
import TonearmURLSession

/// What a Tonearm-scoped test attaches to its report (``NetworkAttachments``): its misses as text and as
/// JSON, and its exchanges as HAR, redacted as recordings are. The `.server` trait makes one from its
/// server's misses and journal, the session traits from their session's.
package struct NetworkReport: Sendable {
    /// The test's name as the files are named after it (`signIn`).
    package var testName: String
    /// Each miss as a failing test prints it.
    package var missTexts: [String]
    /// Each miss as JSON (``Tonearm/MissReport``'s document).
    package var missDocuments: [JSONValue]
    /// The exchanges as a HAR 1.2 document; `nil` when there were none.
    package var har: [UInt8]?

    package init(testName: String, missTexts: [String], missDocuments: [JSONValue], har: [UInt8]?) {
        self.testName = testName
        self.missTexts = missTexts
        self.missDocuments = missDocuments
        self.har = har
    }

    /// The report of `session`: its misses, and its exchanges redacted with its redaction (a miss, which
    /// has no response, as a failed entry whose error says why).
    package init(testName: String, session: ReplaySession) {
        let misses = session.misses
        let tracks = session.exchanges.map { exchange in
            let outcome: Track.Outcome = exchange.response.map { .response($0) }
                ?? .transportError(.other(code: 0, message: exchange.failure ?? "no response"))
            return session.redaction.redact(Track(request: exchange.request, outcome: outcome, name: exchange.source.rawValue))
        }
        self.init(
            testName: testName, missTexts: misses.map(\.description),
            missDocuments: misses.map { $0.report.jsonDocument(source: $0.source) },
            har: tracks.isEmpty ? nil : try? HARFormat.encode(Cassette(tracks: tracks)))
    }

    /// Whether there is anything to attach.
    package var isEmpty: Bool { missTexts.isEmpty && har == nil }

    /// Attaches the report to the current test: `<test> misses.txt`, `<test> misses.json` (when a request
    /// missed) and `<test>.har`.
    package func record(sourceLocation: SourceLocation) {
        if !missTexts.isEmpty {
            Attachment.record(missTexts.joined(separator: "\n\n") + "\n", named: "\(testName) misses.txt", sourceLocation: sourceLocation)
            Attachment.record(JSONValue.array(missDocuments).canonicalText, named: "\(testName) misses.json", sourceLocation: sourceLocation)
        }
        if let har { Attachment.record(har, named: "\(testName).har", sourceLocation: sourceLocation) }
    }
}

/// Whether a test fails while a body runs: watches the issues recorded in its scope (with Swift
/// Testing's issue handling, passing each on unchanged) for one that counts as a failure, a known issue
/// or a warning not being one.
package enum FailureWatch {
    /// Runs `body` for `test`; whether an issue recorded meanwhile fails the test. A thrown error is
    /// rethrown: the caller counts it too.
    package static func run(
        for test: Test, testCase: Test.Case?, _ body: @Sendable () async throws -> Void
    ) async throws -> Bool {
        let failed = Flag()
        let watch = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failed.set() }
            return issue
        }
        try await watch.provideScope(for: test, testCase: testCase, performing: body)
        return failed.isSet
    }

    /// A flag set from any thread.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }
}
