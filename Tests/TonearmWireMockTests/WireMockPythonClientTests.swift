import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

@Suite("WireMock's Python client against the admin API")
struct WireMockPythonClientTests {
    @Test("CI has the Python client", .enabled(if: WireMockPython.required, "local run: the Python client is optional"))
    func interpreterPresentInCI() {
        #expect(WireMockPython.interpreter != nil, Comment(rawValue: WireMockPython.missingMessage))
    }

    @Test(
        "mappings, journal, count and find, near misses, settings, save and reset through the wiremock package",
        .enabled(if: WireMockPython.interpreter != nil, Comment(rawValue: WireMockPython.missingMessage)))
    func pythonClient() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url
        try TemporaryFolder.makeHelloWireMockRoot(at: root)
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root
        let server = try await TonearmServer.start(configuration)
        defer { Task { try? await server.stop() } }
        let python = try #require(WireMockPython.interpreter)
        let run = try await ProcessRun.run(python, [WireMockPython.script("wiremock_client.py"), server.baseURL.absoluteString])
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("OK"))
        let saved = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("mappings").path)
        // persist_mappings wrote the two added mappings beside static.json; deleting the mappings deleted
        // their files, static.json's too, as WireMock deletes them.
        #expect(saved.isEmpty, "\(saved)")
        try await server.stop()
    }
}
