import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

@Suite("Rule files")
struct RuleFileTests {
    static let yaml = """
        rules:
          - name: user by id
            method: GET
            url: '^https://api\\.example\\.com/users/[0-9]+$'
            status: 200
            headers: {Content-Type: application/json}
            file: responses/user.json
          - name: offline search
            path: '^/search'
            transportError: notConnectedToInternet
          - name: fallback
            url: '.*'
            status: 404
            body: not stubbed
            priority: 9
        """

    @Test("YAML rules load with response files resolved next to the rules file, and answer requests")
    func yamlRules() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("responses"), withIntermediateDirectories: true)
        try folder.write("responses/user.json", #"{"id":42}"#)
        try folder.write("rules.yaml", Self.yaml)
        let imported = try RuleFileFormat.load(contentsOf: folder.file("rules.yaml"))
        #expect(imported.rules.map(\.name) == ["user by id", "offline search", "fallback"])
        #expect(imported.rules[0].bodyFile == "responses/user.json")
        let engine = try imported.makeEngine()
        #expect(engine.match(Request(url: "https://api.example.com/users/42")).hit?.track.response?.body == Array(#"{"id":42}"#.utf8))
        #expect(engine.match(Request(url: "https://api.example.com/search?q=x")).hit?.track.outcome == .transportError(.notConnectedToInternet))
        #expect(engine.match(Request(url: "https://elsewhere.example/")).hit?.track.response?.status == 404)
    }

    @Test("the same rules in JSON and in a property list load identically")
    func jsonAndPlist() throws {
        let folder = try TemporaryFolder()
        try folder.write("body.txt", "hello")
        try folder.write("rules.json", #"[{"name": "hello", "url": "^https://h\\.example/hello$", "file": "body.txt", "headers": [["X-A", "1"]]}]"#)
        try folder.write("rules.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>rules</key><array><dict>
              <key>name</key><string>hello</string>
              <key>url</key><string>^https://h\\.example/hello$</string>
              <key>file</key><string>body.txt</string>
              <key>headers</key><dict><key>X-A</key><string>1</string></dict>
            </dict></array></dict></plist>
            """)
        for name in ["rules.json", "rules.plist"] {
            let imported = try RuleFileFormat.load(contentsOf: folder.file(name))
            let rule = try #require(imported.rules.first, "\(name)")
            #expect(rule.pattern == #"^https://h\.example/hello$"#)
            #expect(rule.outcome == .response(Response(status: 200, headers: [HeaderField("X-A", "1")], body: "hello")), "\(name)")
        }
    }

    @Test("a missing response file is an error naming the rule and the path")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("rules.yaml", "rules:\n  - name: gone\n    url: '^x$'\n    file: nowhere.json\n")
        let error = try #require(throws: CassetteError.self) { try RuleFileFormat.load(contentsOf: folder.file("rules.yaml")) }
        #expect(error.path == "$.rules[0].file")
        #expect(error.line == 4)
        #expect(error.description.contains("rule \"gone\""))
        #expect(error.description.contains("nowhere.json"))
    }

    @Test("an invalid regex is an error naming the rule")
    func invalidRegex() throws {
        let error = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(Array(#"{"rules": [{"name": "broken", "url": "(unclosed"}]}"#.utf8), syntax: .json, file: "r.json")
        }
        #expect(error.path == "$.rules[0].url")
        #expect(error.description.contains("rule \"broken\""))
    }
}
