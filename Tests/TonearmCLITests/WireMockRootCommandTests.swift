import Foundation
import Testing
import TonearmTestSupport

/// Issue 20 §6: a WireMock root folder given where a folder is accepted is read as WireMock, not as a
/// Tonearm stub folder of rules made from file names.
@Suite("WireMock root folders on the command line", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct WireMockRootCommandTests {
    @Test("lint, explain and convert read the root's mappings, bodies from __files")
    func lintExplainConvert() async throws {
        let folder = try TemporaryFolder()
        let root = try folder.makeWireMockRoot()
        let lint = try await TonearmExecutable.run(["lint", root.path])
        #expect(lint.status == 0, "\(lint.output)\(lint.errors)")
        #expect(lint.output.contains("1 track(s), 1 rule(s), 0 finding(s)"), "\(lint.output)")
        let explain = try await TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/users/42"])
        #expect(explain.status == 0, "\(explain.output)\(explain.errors)")
        #expect(explain.output.contains("Match"), "\(explain.output)")
        let rule = try await TonearmExecutable.run(["explain", "--cassette", root.path, "--url", "http://127.0.0.1:8080/search/ada"])
        #expect(rule.status == 0, "\(rule.output)\(rule.errors)")
        let converted = folder.file("out.json")
        let convert = try await TonearmExecutable.run(["convert", root.path, converted.path])
        #expect(convert.status == 0, "\(convert.errors)")
        let written = try String(contentsOf: converted, encoding: .utf8)
        #expect(written.contains(#""text": "{\"id\":42}""#), "the __files body is in the converted track: \(written)")
    }
}
