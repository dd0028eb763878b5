import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmServerTesting
import TonearmTestSupport
import XCTest

/// The `.server` trait and `withTonearmServer` over cassettes checked in beside this file
/// (`__Cassettes__/ServerTraitTests/profile.json`, `__Cassettes__/ServerXCTests/testWithTonearmServer.json`),
/// replay only.
@Suite("TonearmTesting: the server trait")
struct ServerTraitTests {
    @Test(.server("profile", hosts: ["api.example.com"], record: .never))
    func profile() async throws {
        let server = try #require(TonearmServer.current)
        let answer = try await TestClient.send(server.baseURL(for: "api.example.com").absoluteString + "/v1/profile?id=1")
        #expect(answer.status == 200)
        #expect(answer.text == #"{"id":1,"name":"Ada"}"#)
    }

    @Test("A trait server intercepting HTTPS hands the test the environment for a child process: curl with only that environment replays the cassette's https host through the proxy")
    func proxyEnvironmentForChildProcesses() async throws {
        let test = try #require(Test.current)
        let folder = try TemporaryFolder()
        let authority = try LocalCertificateAuthority.loadOrCreate(in: folder.url.appendingPathComponent("ca"))
        var configuration = ServerConfiguration(log: { _ in })
        configuration.tls.certificateAuthority = authority
        configuration.tls.interceptsHTTPS = true
        try await ServerTrait(name: "profile", configuration: configuration, record: .never, sourceLocation: #_sourceLocation)
            .provideScope(for: test, testCase: nil) {
                let server = try #require(TonearmServer.current)
                let environment = server.proxyEnvironment
                #expect(environment["HTTPS_PROXY"] == server.baseURL.absoluteString)
                #expect(environment["SSL_CERT_FILE"] == authority.certificateFile?.path)
                #expect(server.certificateAuthorityFile == authority.certificateFile)
                let run = try await curl(["-sS", "https://api.example.com/v1/profile?id=1"], environment: environment)
                #expect(run.status == 0, "\(run.errors)")
                #expect(run.output == #"{"id":1,"name":"Ada"}"#)
            }
    }

    @Test("A miss inside the trait becomes a test issue naming the request")
    func missBecomesIssue() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await ServerTrait(
                name: "profile", configuration: ServerConfiguration(hosts: [try UpstreamHost(parsing: "api.example.com")], log: { _ in }),
                record: .never, sourceLocation: #_sourceLocation
            ).provideScope(for: test, testCase: nil) {
                let server = try #require(TonearmServer.current)
                _ = try await TestClient.send(server.baseURL(for: "api.example.com").absoluteString + "/v1/profile?id=2")
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("/v1/profile?id=2") }
        }
    }
}

final class ServerXCTests: XCTestCase {
    func testWithTonearmServer() async throws {
        try await withTonearmServer(hosts: ["api.example.com"], record: .never) { server in
            let answer = try await TestClient.send(server.baseURL(for: "api.example.com").absoluteString + "/v1/profile?id=1")
            XCTAssertEqual(answer.status, 200)
        }
    }
}
