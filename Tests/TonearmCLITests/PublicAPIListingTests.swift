import Foundation
import Testing
import TonearmTestSupport

/// docs/public-api-listing.txt is the public API as the compiler sees it: a public declaration added,
/// removed or changed without regenerating it (and saying why in docs/public-api.md) fails here.
@Suite("The public API listing")
struct PublicAPIListingTests {
    #if os(Linux)
    @Test("docs/public-api-listing.txt matches the symbol graphs of the modules this test run built")
    func listingMatchesTheCode() async throws {
        let tonearm = try #require(builtExecutable("tonearm"), "the tonearm executable is not built")
        var environment = ProcessInfo.processInfo.environment
        environment["BUILD"] = tonearm.deletingLastPathComponent().path
        let run = try await ProcessRun.run(
            "/usr/bin/env", ["python3", packageRoot.appending(path: "scripts/public-api.py").path, "--check"],
            environment: environment)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
    }
    #endif
}
