import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmTestSupport

/// README's "A local server for other processes and languages" Swift example, verbatim between the
/// markers. Change both together.
@Suite("README: local server example")
struct ReadmeServerExampleTests {
    @Test("the Swift example starts a server, gives the host's base URL, and stops")
    func example() async throws {
        let folder = try TemporaryFolder()
        let cassetteURL = folder.file("signIn.json")
        try CassetteFile.save(
            Cassette(tracks: [Track(request: Request(url: "https://api.example.com/v1/users"), response: Response(body: "[]"))]),
            to: cassetteURL, format: .native)
        // README begin
        let server = try await TonearmServer.start(ServerConfiguration(
            cassette: cassetteURL, mode: .never, hosts: [try UpstreamHost(parsing: "api.example.com")]))
        let usersURL = server.baseURL(for: "api.example.com").appendingPathComponent("v1/users")
        // hand usersURL's base to the app, e.g. app.launchEnvironment["API_BASE_URL"]
        // README end
        let answer = try await TestClient.send(usersURL.absoluteString)
        // README begin
        try await server.stop()   // saves what was recorded
        // README end
        #expect(answer.text == "[]")
        #expect(usersURL.absoluteString == "\(server.baseURL.absoluteString)/api.example.com/v1/users")
    }
}
