import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Per-test stub folders whose files hold a response body alone (`<root>/<test>/<file per request>.json`).
@Suite("Body-only stub folders")
struct BodyOnlyStubFolderTests {
    /// `<root>/LoginTests/…`: body-only files beside one native track file.
    static func makeTestFolder(_ root: TemporaryFolder) throws -> URL {
        let folder = root.file("LoginTests")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try root.write("LoginTests/GET-users-42.json", #"{"id": 42}"#)
        try root.write("LoginTests/users.json", #"[{"id": 1}]"#)
        try root.write("LoginTests/001-POST-v1-session.json", #"{"token": "abc"}"#)
        let native = Track(request: Request(url: "https://api.example.com/native"), response: Response(body: "native"))
        try StubFolder.writeTest(Cassette(tracks: [native]), to: root.file("Recorded"))
        try FileManager.default.moveItem(
            at: root.file("Recorded/001-GET-native.json"), to: folder.appendingPathComponent("002-GET-native.json"))
        return folder
    }

    @Test("A test's folder answers each request its files name, native track files as tracks")
    func answersByFileName() throws {
        let root = try TemporaryFolder()
        let imported = try CassetteFile.load(try Self.makeTestFolder(root))
        #expect(imported.cassette.tracks.count == 1)
        #expect(imported.rules.map(\.name) == ["001-POST-v1-session.json", "GET-users-42.json", "users.json"], "most specific first")
        let engine = try imported.makeEngine()
        func body(_ method: String, _ url: String) -> String? {
            engine.match(Request(method: method, url: url)).hit?.track.response.map { String(decoding: $0.body, as: UTF8.self) }
        }
        #expect(body("GET", "https://api.example.com/users/42") == #"{"id": 42}"#)
        #expect(body("GET", "https://api.example.com/users/42?expand=1") == #"{"id": 42}"#, "the query is not compared")
        #expect(body("GET", "https://api.example.com/api/v1/users") == #"[{"id": 1}]"#, "the words end the path")
        #expect(body("DELETE", "https://api.example.com/users") == #"[{"id": 1}]"#, "no method in the name: any method")
        #expect(body("POST", "https://auth.example.com/v1/session") == #"{"token": "abc"}"#)
        #expect(body("GET", "https://auth.example.com/v1/session") == nil, "the name's method is kept")
        #expect(body("GET", "https://api.example.com/users/43") == nil)
        #expect(body("GET", "https://api.example.com/native") == "native")
        let users = try #require(engine.match(Request(url: "https://api.example.com/users/42")).hit?.track.response)
        #expect(users.status == 200)
        #expect(users.headers.first(named: "Content-Type") == "application/json")
    }

    @Test("A folder of test folders reads them all; a test's folder given alone reads its own files")
    func rootAndTestFolder() throws {
        let root = try TemporaryFolder()
        _ = try Self.makeTestFolder(root)
        try FileManager.default.removeItem(at: root.file("Recorded"))
        let all = try CassetteFile.load(root.url)
        #expect(all.rules.count == 3)
        #expect(all.cassette.tracks.map(\.name) == ["LoginTests"])
    }

    @Test("Writing a test folder replaces Tonearm's own stale track files but keeps hand-written bodies")
    func writingKeepsBodies() throws {
        let root = try TemporaryFolder()
        let folder = root.file("T")
        let track = Track(request: Request(url: "https://api.example.com/a"), response: Response(body: "a"))
        try StubFolder.writeTest(Cassette(tracks: [track, track]), to: folder)
        try root.write("T/005-GET-users.json", #"{"id": 1}"#)
        try StubFolder.writeTest(Cassette(tracks: [track]), to: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["001-GET-a.json", "005-GET-users.json"])
    }

    @Test("A body file that is not JSON fails the folder, naming the file and position")
    func brokenBody() throws {
        let root = try TemporaryFolder()
        try FileManager.default.createDirectory(at: root.file("T"), withIntermediateDirectories: true)
        try root.write("T/GET-users.json", #"{"id": 4"#)
        #expect {
            _ = try CassetteFile.load(root.file("T"))
        } throws: { error in
            "\(error)".contains("GET-users.json:1:")
        }
    }
}
