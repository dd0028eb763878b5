import Foundation
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmTesting
import TonearmURLSession
import XCTest

extension XCTestCase {
    /// Runs `body` with a local `TonearmServer/TonearmServer` over a cassette named after this test
    /// (`__Cassettes__/<TestCase>/<test>.json` beside the test file), then stops it, saving the recording,
    /// and fails the test for every request nothing answered.
    ///
    /// ```swift
    /// func testSignIn() async throws {
    ///     try await withTonearmServer(hosts: ["api.example.com"]) { server in
    ///         app.launchEnvironment["API_BASE_URL"] = server.baseURL(for: "api.example.com").absoluteString
    ///         app.launch()
    ///         …
    ///     }
    /// }
    /// ```
    public func withTonearmServer(
        _ name: String? = nil, hosts: [String] = [], upstream: String? = nil, strategy: StrategyHint? = nil,
        record: RecordMode? = nil, rewriteURLs: Bool = false,
        file: StaticString = #filePath, line: UInt = #line, _ body: (TonearmServer) async throws -> Void
    ) async throws {
        let configuration = ServerConfiguration(
            cassette: cassetteURL(named: name, file: file),
            mode: try RecordMode.resolve(requested: record, environment: ProcessInfo.processInfo.environment),
            strategy: strategy, hosts: hosts.compactMap { UpstreamHost($0) }, upstream: upstream.flatMap { UpstreamHost($0) },
            rewritesURLs: rewriteURLs)
        let server = try await TonearmServer.start(configuration)
        do {
            try await TonearmServer.$current.withValue(server) { try await body(server) }
        } catch {
            try? await server.stop()
            attachNetworkReport(NetworkReport(testName: suiteAndTestName.test, server: server), failed: true, file: file, line: line)
            throw error
        }
        try await server.stop()
        let misses = server.misses
        for miss in misses { XCTFail("Tonearm server: \(miss)", file: file, line: line) }
        attachNetworkReport(NetworkReport(testName: suiteAndTestName.test, server: server), failed: !misses.isEmpty, file: file, line: line)
    }
}
