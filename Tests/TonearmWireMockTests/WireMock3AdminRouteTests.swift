import Foundation
import Testing
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock 3's admin routes (`GET version`, `GET`/`DELETE mappings/unmatched`, `GET files/{name}`),
/// through a real server and client, and `--wiremock-version 2`, which answers them as the 2.35.1 jar does.
@Suite("WireMock 3 admin routes")
struct WireMock3AdminRouteTests {
    private static func start(root: URL? = nil, version: ServerConfiguration.WireMock.Version = .v3) async throws -> TonearmServer {
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root
        configuration.wireMock.version = version
        return try await TonearmServer.start(configuration)
    }

    private static func object(_ response: ClientResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "not a JSON object: \(response.text)")
    }

    @Test("GET version answers JSON, or the version as text to a client accepting text/plain")
    func version() async throws {
        let server = try await Self.start()
        let json = try await TestClient.send(server.baseURL.absoluteString + "/__admin/version")
        #expect(json.status == 200)
        #expect(json.headers.first(named: "Content-Type") == "application/json")
        #expect(try Self.object(json)["version"] as? String == "3.13.2")
        let text = try await TestClient.send(server.baseURL.absoluteString + "/__admin/version", headers: [("Accept", "text/plain")])
        #expect(text.headers.first(named: "Content-Type") == "text/plain")
        #expect(text.text == "3.13.2")
        try await server.stop()
    }

    @Test("mappings/unmatched lists the mappings no request was answered by; DELETE removes those only")
    func unmatchedMappings() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        for path in ["/one", "/two"] {
            let created = try await TestClient.send(
                base + "/__admin/mappings", method: "POST", body: #"{"request": {"method": "GET", "url": "\#(path)"}}"#)
            #expect(created.status == 201)
        }
        let empty = try Self.object(try await TestClient.send(base + "/__admin/mappings/unmatched"))
        #expect((empty["meta"] as? [String: Any])?["total"] as? Int == 2)
        #expect(try await TestClient.send(base + "/one").status == 200)
        let listed = try Self.object(try await TestClient.send(base + "/__admin/mappings/unmatched"))
        #expect((listed["meta"] as? [String: Any])?["total"] as? Int == 1)
        #expect(((listed["mappings"] as? [[String: Any]])?.first?["request"] as? [String: Any])?["url"] as? String == "/two")
        #expect(try await TestClient.send(base + "/__admin/mappings/unmatched", method: "DELETE").status == 200)
        #expect(try await TestClient.send(base + "/one").status == 200)
        #expect(try await TestClient.send(base + "/two").status == 404)
        try await server.stop()
    }

    @Test("GET files/NAME answers a body file's bytes, 404 for none, and refuses a name leading out of __files")
    func bodyFile() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("wm/__files/foo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.file("wm/mappings"), withIntermediateDirectories: true)
        try folder.write("wm/__files/foo/bar.txt", "AAA")
        let server = try await Self.start(root: folder.file("wm"))
        let base = server.baseURL.absoluteString
        let file = try await TestClient.send(base + "/__admin/files/foo/bar.txt")
        #expect(file.status == 200)
        #expect(file.text == "AAA")
        #expect(try await TestClient.send(base + "/__admin/files/foo/none.txt").status == 404)
        #expect(try await TestClient.send(base + "/__admin/files/foo").status == 404)
        #expect(try await TestClient.send(base + "/__admin/files/..%2F..%2Fetc%2Fpasswd").status != 200)
        try await server.stop()
    }

    @Test("with --wiremock-version 2 the 3.x routes answer as the 2.35.1 jar routes them: version 404, mappings/unmatched 500")
    func wireMock2Routes() async throws {
        let server = try await Self.start(version: .v2)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/__admin/version").status == 404)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings/unmatched").status == 500)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings/unmatched", method: "DELETE").status == 500)
        try await server.stop()
    }

    @Test("GET files lists the body files by their names in __files as 3.x does, by absolute path as 2.35 does")
    func listedFiles() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("wm/__files/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.file("wm/mappings"), withIntermediateDirectories: true)
        try folder.write("wm/__files/zoo.txt", "contents")
        try folder.write("wm/__files/bar.txt", "contents")
        try folder.write("wm/__files/sub/b.txt", "contents")
        for version in ServerConfiguration.WireMock.Version.allCases {
            let server = try await Self.start(root: folder.file("wm"), version: version)
            let listed = try await TestClient.send(server.baseURL.absoluteString + "/__admin/files")
            try await server.stop()
            let names = try #require(try JSONSerialization.jsonObject(with: Data(listed.body)) as? [String], "\(listed.text)")
            if version == .v3 {
                #expect(names == ["bar.txt", "sub/b.txt", "zoo.txt"])
            } else {
                #expect(names.count == 3 && names.allSatisfy { $0.hasPrefix("/") && $0.contains("/wm/__files/") }, "\(names)")
            }
        }
    }
}
