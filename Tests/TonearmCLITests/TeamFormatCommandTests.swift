import Foundation
import Testing
import TonearmTestSupport

/// `tonearm lint` and `tonearm explain` read a team's stub bundle and body-only stub folder as they are.
@Suite("tonearm on team formats", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct TeamFormatCommandTests {
    /// A `login.bundle` with an XML `stubsRules.plist` in `folder`.
    static func makeBundle(in folder: TemporaryFolder, jsonFile: String = "user") throws -> URL {
        let bundle = folder.file("login.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(#"{"id":7}"#.utf8).write(to: bundle.appendingPathComponent("user.json"))
        let rules: [[String: Any]] = [
            ["matching_url": #"^https://api\.example\.com/users/[0-9]+$"#, "json_file": jsonFile, "http_method": "GET"],
            ["matching_url": #"^https://api\.example\.com/users/[0-9]+$"#, "json_file": "user", "http_method": "GET"],
        ]
        try PropertyListSerialization.data(fromPropertyList: rules, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("stubsRules.plist"))
        return bundle
    }

    @Test("explain names the bundle rule that answers; lint finds the rule the one before it hides")
    func explainAndLintABundle() async throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.makeBundle(in: folder)
        let explained = try await TonearmExecutable.run(["explain", "--cassette", bundle.path, "--url", "https://api.example.com/users/7"])
        #expect(explained.status == 0, "\(explained.errors)")
        #expect(explained.output.contains(#"rule #0 "rule 1" answers with status 200"#))
        let linted = try await TonearmExecutable.run(["lint", bundle.path])
        #expect(linted.status == 1, "the second rule can never fire")
        #expect(linted.output.contains("0 track(s), 2 rule(s)"))
    }

    @Test("A bundle rule naming a missing JSON file fails lint with the plist, the entry and the file")
    func missingFile() async throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.makeBundle(in: folder, jsonFile: "nowhere")
        let linted = try await TonearmExecutable.run(["lint", bundle.path])
        #expect(linted.status == 2)
        #expect(linted.errors.contains("stubsRules.plist: at $[0].json_file: expected a response file for rule 1"))
        #expect(linted.errors.contains("nowhere.json"))
    }

    @Test("explain reads a per-test folder of bare JSON bodies")
    func explainABodyFolder() async throws {
        let root = try TemporaryFolder()
        let folder = root.file("testSignIn")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"token":"abc"}"#.utf8).write(to: folder.appendingPathComponent("POST-v1-session.json"))
        let explained = try await TonearmExecutable.run([
            "explain", "--cassette", folder.path, "--method", "POST", "--url", "https://api.example.com/v1/session",
        ])
        #expect(explained.status == 0, "\(explained.errors)")
        #expect(explained.output.contains(#""POST-v1-session.json" answers with status 200"#))
    }
}
