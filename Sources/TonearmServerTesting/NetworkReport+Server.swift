import TonearmServer
import TonearmTesting

extension NetworkReport {
    /// The report of a test's server: its misses, and its journal as HAR, redacted as recordings are.
    init(testName: String, server: TonearmServer) {
        let misses = server.misses
        let source = server.configuration.cassette.map { "cassette \($0.path)" } ?? "the server"
        self.init(
            testName: testName, missTexts: misses.map { "Tonearm server: \($0)" },
            missDocuments: misses.map { $0.jsonDocument(source: source) },
            har: server.journal.isEmpty ? nil : Result { () throws(ServerError) in try server.journalHAR() }.mapError(HARFailure.init))
    }
}
