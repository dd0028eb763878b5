import Foundation
import Testing
import TonearmTestSupport

/// Issue 20 §6: a WireMock root folder given where a folder is accepted is read as WireMock, not as a
/// Tonearm stub folder of rules made from file names.
@Suite("WireMock root folders on the command line", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct WireMockRootCommandTests {
    /// `mappings/` (with a subfolder) and `__files/`, as WireMock's standalone server lays them out.
    static func makeRoot(in folder: TemporaryFolder) throws -> URL {
        try FileManager.default.createDirectory(at: folder.file("wm/mappings/users"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.file("wm/__files"), withIntermediateDirectories: true)
        try folder.write("wm/mappings/users/get-user.json", """
            {"request": {"method": "GET", "url": "/users/42"}, "response": {"status": 200, "bodyFileName": "user.json"}}
            """)
        try folder.write("wm/mappings/search.json", """
            {"request": {"method": "GET", "urlPathPattern": "/search/.*"}, "response": {"status": 204}}
            """)
        try folder.write("wm/__files/user.json", #"{"id":42}"#)
        return folder.file("wm")
    }

    @Test("lint, explain and convert read the root's mappings, bodies from __files")
    func lintExplainConvert() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeRoot(in: folder)
        let lint = try TonearmExecutable.run(["lint", root.path])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("1 track(s), 1 rule(s), 0 finding(s)"), "\(lint.output)")
        let explain = try TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/users/42"])
        #expect(explain.status == 0, "\(explain.output)\(explain.errors)")
        #expect(explain.output.contains("Match"), "\(explain.output)")
        let rule = try TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/search/ada"])
        #expect(rule.status == 0, "\(rule.output)\(rule.errors)")
        let converted = folder.file("out.json")
        let convert = try TonearmExecutable.run(["convert", root.path, converted.path])
        #expect(convert.status == 0, "\(convert.errors)")
        let written = try String(contentsOf: converted, encoding: .utf8)
        #expect(written.contains(#""text": "{\"id\":42}""#), "the __files body is in the converted track: \(written)")
    }
}
