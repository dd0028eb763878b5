import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmTestSupport

/// The Swift example of the server (README and TonearmServerTesting's "UI tests with the server"), verbatim:
/// DocumentationExampleTests checks that it is here.
@Suite("README: local server example")
struct ReadmeServerExampleTests {
    @Test("the Swift example starts a server, gives the host's base URL, and stops")
    func example() async throws {
        let folder = try TemporaryFolder()
        let cassetteURL = folder.file("signIn.json")
        try CassetteFile.save(
            Cassette(tracks: [Track(request: Request(url: "https://api.example.com/v1/users"), response: Response(body: "[]"))]),
            to: cassetteURL, format: .native)
        let server = try await TonearmServer.start(ServerConfiguration(
            cassette: cassetteURL, mode: .never, hosts: [try UpstreamHost(parsing: "api.example.com")]))
        let usersURL = server.baseURL(for: "api.example.com").appendingPathComponent("v1/users")
        let (users, _) = try await URLSession.shared.data(from: usersURL)   // or hand the base URL to the app
        try await server.stop()   // saves what was recorded
        #expect(String(decoding: users, as: UTF8.self) == "[]")
        #expect(usersURL.absoluteString == "\(server.baseURL.absoluteString)/api.example.com/v1/users")
    }
}
