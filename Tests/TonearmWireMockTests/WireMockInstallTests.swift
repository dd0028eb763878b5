import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock

@Suite("WireMock installed in a server, or not")
struct WireMockInstallTests {
    @Test("setting ServerConfiguration.wireMock installs the admin API (the TonearmWireMock DocC example)")
    func installed() async throws {
        var configuration = ServerConfiguration()
        configuration.wireMock = .init(version: .v3)
        let server = try await TonearmServer.start(configuration)
        let health = try await TestClient.send(server.baseURL.absoluteString + "/__admin/health")
        #expect(health.status == 200)
        #expect(health.text.contains("healthy"))
        try await server.stop()
    }

    @Test("a server nobody set wireMock on has no admin API: /__admin is a path like any other, a miss")
    func notInstalled() async throws {
        let server = try await TonearmServer.start(ServerConfiguration(log: { _ in }))
        let health = try await TestClient.send(server.baseURL.absoluteString + "/__admin/health")
        #expect(health.status == 404)
        #expect(health.headers.contains { $0.name.lowercased() == "tonearm-miss" })
        try await server.stop()
    }
}
