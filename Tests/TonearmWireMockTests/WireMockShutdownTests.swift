import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// `POST /__admin/shutdown`, as WireMock's: answered, then the server stops as it does for SIGTERM;
/// only through the admin API's guard, its token included.
@Suite("WireMock admin shutdown")
struct WireMockShutdownTests {
    @Test("a tonearm serve process answers 200, stops as for SIGTERM (the journal written, the stopped line) and exits 0; without the token it is refused and keeps serving")
    func processExits() async throws {
        guard builtExecutable("tonearm") != nil else { return }
        let folder = try TemporaryFolder()
        let journal = folder.file("journal.har")
        let server = try await ServeProcess(["--admin-token", "s3cret", "--journal", journal.path])
        let base = server.url
        let refused = try await TestClient.send(base + "/__admin/shutdown", method: "POST")
        #expect(refused.status == 401 || refused.status == 403, "\(refused.status) \(refused.text)")
        let wrong = try await TestClient.send(base + "/__admin/shutdown", method: "POST", headers: [("Authorization", "Bearer guess")])
        #expect(wrong.status == 401 || wrong.status == 403, "\(wrong.status) \(wrong.text)")
        let health = try await TestClient.send(base + "/__admin/health", headers: [("Authorization", "Bearer s3cret")])
        #expect(health.status == 200, "still serving after refused shutdowns")
        #expect(try await TestClient.send(base + "/nothing").status == 404)

        let asked = try await TestClient.send(base + "/__admin/shutdown", method: "POST", headers: [("Authorization", "Bearer s3cret")])
        #expect(asked.status == 200, "\(asked.text)")
        let exit = try await server.waitForExit()
        #expect(exit.status == 0, "\(exit.errors)")
        #expect(exit.output.contains(#""event":"stopped""#), "\(exit.output)")
        #expect(exit.errors.contains("POST /__admin/shutdown"), "\(exit.errors)")
        #expect(FileManager.default.fileExists(atPath: journal.path), "the journal is written as on SIGTERM")
    }

    @Test("a TonearmServer stops by itself after POST /__admin/shutdown; shutdownRequested says who asked, stop() joins the stop under way")
    func libraryServerStops() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let asked = try await TestClient.send(base + "/__admin/shutdown", method: "POST")
        #expect(asked.status == 200)
        #expect(await server.shutdownRequested() == "POST /__admin/shutdown")
        try await server.stop()
        await #expect(throws: (any Error).self) { _ = try await TestClient.send(base + "/__admin/health") }
    }

    @Test("a server stopped otherwise releases shutdownRequested with nil")
    func stopReleasesTheWait() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        try await server.stop()
        #expect(await server.shutdownRequested() == nil)
    }
}
