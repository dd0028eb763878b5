import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmTesting
import TonearmURLSession

/// Scopes a `TonearmServer/TonearmServer` to one test: starts it on 127.0.0.1 (port 0) over a cassette
/// named after the test, makes it `TonearmServer/TonearmServer/current`, then saves the recording,
/// records an issue for every request nothing answered and, as `NetworkAttachments` says, attaches the
/// misses and the journal (HAR) to the test's report.
///
/// For an app in another process (a UI test), hand it the base URL with the host in the path:
/// ```swift
/// @Test(.server(hosts: ["api.example.com"], record: .missing))
/// func signIn() async throws {
///     let server = try #require(TonearmServer.current)
///     app.launchEnvironment["API_BASE_URL"] = server.baseURL(for: "api.example.com").absoluteString
///     …
/// }
/// ```
/// The cassette is `__Cassettes__/<Suite>/<name>.json` beside the test file, as with `CassetteTrait`;
/// `TONEARM_RECORD` overrides `record`, and under CI the default is replay only.
public struct ServerTrait: TestTrait, TestScoping {
    /// The cassette's file name; the test's name when `nil`.
    public var name: String?
    /// The server's configuration; its cassette and mode are set per test.
    public var configuration: ServerConfiguration
    /// The requested record mode (`TONEARM_RECORD` and `CI` decide when `nil`).
    public var record: RecordMode?
    /// Where the trait was written, for issues.
    public var sourceLocation: SourceLocation

    /// Creates the trait; prefer `Trait/server(_:hosts:upstream:strategy:record:rewriteURLs:sourceLocation:)`.
    public init(name: String?, configuration: ServerConfiguration, record: RecordMode?, sourceLocation: SourceLocation) {
        self.name = name
        self.configuration = configuration
        self.record = record
        self.sourceLocation = sourceLocation
    }

    /// Starts the server, runs the test with it as `TonearmServer/TonearmServer/current`, then stops it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let location = test.sourceLocation
        var configuration = self.configuration
        configuration.cassette = CassetteLocation.url(
            filePath: location.filePath,
            suite: CassetteLocation.suiteFolder(enclosingTypes: Array(test.id.nameComponents.dropLast()), filePath: location.filePath),
            test: CassetteLocation.baseName(test.name), name: name)
        configuration.mode = try RecordMode.resolve(requested: record, environment: ProcessInfo.processInfo.environment)
        let attachments = try NetworkAttachments.resolve(for: test, environment: ProcessInfo.processInfo.environment)
        let server = try await TonearmServer.start(configuration)
        let failed: Bool
        do {
            failed = try await FailureWatch.run(for: test, testCase: testCase) {
                try await TonearmServer.$current.withValue(server) { try await function() }
            }
        } catch {
            try? await server.stop()
            attach(server, for: test, when: attachments, failed: true)
            throw error
        }
        try await server.stop()
        for miss in server.misses {
            Issue.record(Comment(rawValue: "Tonearm server: \(miss)"), sourceLocation: sourceLocation)
        }
        attach(server, for: test, when: attachments, failed: failed || !server.misses.isEmpty)
    }

    /// Attaches the server's misses and its journal (as HAR, redacted) to the test's report, as
    /// `attachments` says for a test that `failed`.
    private func attach(_ server: TonearmServer, for test: Test, when attachments: NetworkAttachments, failed: Bool) {
        guard attachments.attaches(failed: failed) else { return }
        NetworkReport(testName: CassetteLocation.baseName(test.name), server: server).record(sourceLocation: sourceLocation)
    }
}

extension Trait where Self == ServerTrait {
    /// A local Tonearm server scoped to the test, over a cassette named after it.
    ///
    /// - Parameters:
    ///   - name: The cassette's file name in `__Cassettes__/<Suite>/`; the test's name when `nil`.
    ///   - hosts: Hosts the app reaches with the host as the first path component (`api.example.com`
    ///     for HTTPS, `http://127.0.0.1:9000` with a scheme and port).
    ///   - upstream: One base URL for requests without a host component.
    ///   - strategy: How tracks answer; the cassette's, else repeat, when `nil`.
    ///   - record: The record mode; `TONEARM_RECORD` overrides it.
    ///   - rewriteURLs: Rewrite the hosts' absolute URLs in responses to go through the server.
    ///   - sourceLocation: Where the trait is written: the server's misses are reported there.
    public static func server(
        _ name: String? = nil, hosts: [String] = [], upstream: String? = nil, strategy: StrategyHint? = nil,
        record: RecordMode? = nil, rewriteURLs: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> ServerTrait {
        ServerTrait(
            name: name,
            configuration: ServerConfiguration(
                strategy: strategy, hosts: hosts.compactMap { UpstreamHost($0) }, upstream: upstream.flatMap { UpstreamHost($0) },
                rewritesURLs: rewriteURLs),
            record: record, sourceLocation: sourceLocation)
    }
}
