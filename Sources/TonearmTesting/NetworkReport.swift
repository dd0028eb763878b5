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
    /// Each miss as JSON (`Tonearm/MissReport`'s document).
    package var missDocuments: [JSONValue]
    /// The exchanges as a HAR 1.2 document (`nil` when there were none), or why they could not be
    /// written as one.
    package var har: Result<[UInt8], HARFailure>?

    /// Why the exchanges could not be written as HAR: the encoder's error, as text.
    package struct HARFailure: Error, Sendable {
        package var reason: String

        package init(_ error: some Error) {
            reason = "\(error)"
        }
    }

    package init(testName: String, missTexts: [String], missDocuments: [JSONValue], har: Result<[UInt8], HARFailure>?) {
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
            har: tracks.isEmpty ? nil : Result { () throws(CassetteError) in try HARFormat.encode(Cassette(tracks: tracks)) }.mapError(HARFailure.init))
    }

    /// Whether there is anything to attach.
    package var isEmpty: Bool { missTexts.isEmpty && har == nil }

    /// The files to attach, by name: `<test> misses.txt` and `<test> misses.json` (when a request
    /// missed), `<test>.har`, or `<test> har error.txt` saying why the exchanges could not be written
    /// as HAR. Swift Testing's and XCTest's attachments are both made from these.
    package var files: [(name: String, bytes: [UInt8])] {
        var files: [(name: String, bytes: [UInt8])] = []
        if !missTexts.isEmpty {
            files.append(("\(testName) misses.txt", Array((missTexts.joined(separator: "\n\n") + "\n").utf8)))
            files.append(("\(testName) misses.json", Array(JSONValue.array(missDocuments).canonicalText.utf8)))
        }
        switch har {
        case .success(let bytes)?: files.append(("\(testName).har", bytes))
        case .failure(let error)?: files.append(("\(testName) har error.txt", Array("Tonearm could not write the exchanges as HAR: \(error.reason)\n".utf8)))
        case nil: break
        }
        return files
    }

    /// Attaches ``files`` to the current Swift Testing test.
    package func record(sourceLocation: SourceLocation) {
        for file in files { Attachment.record(file.bytes, named: file.name, sourceLocation: sourceLocation) }
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
