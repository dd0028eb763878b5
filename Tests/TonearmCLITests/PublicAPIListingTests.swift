import Foundation
import Testing
import TonearmTestSupport

/// docs/public-api-listing.txt is the public API as the compiler sees it: a public declaration added,
/// removed or changed without regenerating it (and saying why in docs/public-api.md) fails here.
@Suite("The public API listing")
struct PublicAPIListingTests {
    #if os(Linux)
    @Test("docs/public-api-listing.txt matches the symbol graphs of the modules this test run built")
    func listingMatchesTheCode() throws {
        let tonearm = try #require(builtExecutable("tonearm"), "the tonearm executable is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot.appending(path: "scripts/public-api.py").path, "--check"]
        var environment = ProcessInfo.processInfo.environment
        environment["BUILD"] = tonearm.deletingLastPathComponent().path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
    }
    #endif
}
