import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Stub bundles as teams keep them: `<name>.bundle/stubsRules.plist` with
/// `{matching_url, json_file, status_code, http_method}` rules and the JSON files they name.
@Suite("Stub bundles")
struct StubBundleTests {
    static var rules: [[String: Any]] { [
        ["matching_url": #"^https://api\.example\.com/users/[0-9]+$"#, "json_file": "user", "http_method": "get"],
        ["matching_url": #"/login"#, "json_file": "login_failed", "status_code": 401, "http_method": "POST"],
        ["matching_url": #"/feed"#, "json_file": "feed", "status_code": "503"],
    ] }

    /// A `login.bundle` in `folder` holding `rules` in `format` under `plistName`, and its JSON files.
    static func makeBundle(
        in folder: TemporaryFolder, rules: [[String: Any]] = rules, format: PropertyListSerialization.PropertyListFormat = .xml,
        plistName: String = "stubsRules.plist"
    ) throws -> URL {
        let bundle = folder.file("login.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try folder.write("login.bundle/user.json", #"{"id": 42, "name": "Ada"}"#)
        try folder.write("login.bundle/login_failed.json", #"{"error":"bad password"}"#)
        try folder.write("login.bundle/feed.json", "[]")
        let data = try PropertyListSerialization.data(fromPropertyList: rules, format: format, options: 0)
        try data.write(to: bundle.appendingPathComponent(plistName))
        return bundle
    }

    @Test("An XML stubsRules.plist answers by regex over the URL, method, status and the named JSON file")
    func xmlBundle() throws {
        let folder = try TemporaryFolder()
        let imported = try StubBundleFormat.load(contentsOf: try Self.makeBundle(in: folder))
        #expect(imported.rules.count == 3)
        let engine = try imported.makeEngine()
        let user = try #require(engine.match(Request(url: "https://api.example.com/users/42")).hit?.track.response)
        #expect(user.status == 200, "status_code defaults to 200")
        #expect(user.body == Array(#"{"id": 42, "name": "Ada"}"#.utf8), "the file's bytes, as written")
        #expect(user.headers.first(named: "Content-Type") == "application/json")
        #expect(engine.match(Request(method: "POST", url: "https://api.example.com/users/42")).hit == nil, "http_method is kept")
        #expect(engine.match(Request(method: "POST", url: "https://auth.example.com/login")).hit?.track.response?.status == 401)
        #expect(engine.match(Request(method: "GET", url: "https://auth.example.com/login")).hit == nil)
        #expect(engine.match(Request(method: "DELETE", url: "https://api.example.com/feed")).hit?.track.response?.status == 503,
                "no http_method answers any method; a numeric string status is read")
    }

    @Test("Binary property lists and stubsMapping.plist read the same", arguments: [
        (PropertyListSerialization.PropertyListFormat.binary, "stubsRules.plist"), (.xml, "stubsMapping.plist"), (.binary, "stubsMapping.plist"),
    ])
    func binaryAndMappingName(format: PropertyListSerialization.PropertyListFormat, plistName: String) throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.makeBundle(in: folder, format: format, plistName: plistName)
        let imported = try CassetteFile.load(bundle)
        #expect(imported.rules.map(\.pattern) == Self.rules.compactMap { $0["matching_url"] as? String })
        #expect(try imported.makeEngine().match(Request(url: "https://api.example.com/users/7")).hit != nil)
    }

    @Test("The bundle folder and its plist are detected as stub bundles; a stub-schema plist stays a rule file")
    func detection() throws {
        let folder = try TemporaryFolder()
        let bundle = try Self.makeBundle(in: folder)
        #expect(try CassetteFormat.detect(bundle) == .stubBundle)
        #expect(try CassetteFormat.detect(bundle.appendingPathComponent("stubsRules.plist")) == .stubBundle)
        #expect(CassetteFormat(name: "bundle") == .stubBundle)
        let schema = try PropertyListSerialization.data(
            fromPropertyList: [["url": "^https://x/", "body": "hi"]], format: .xml, options: 0)
        try schema.write(to: folder.file("rules.plist"))
        #expect(try CassetteFormat.detect(folder.file("rules.plist")) == .rules)
        #expect(try CassetteFormat.detect(folder.url) == .stubs, "a folder that is not a .bundle is a stub folder")
    }

    @Test("A missing JSON file fails the whole bundle, naming the plist, the entry and the file")
    func missingJSONFile() throws {
        let folder = try TemporaryFolder()
        var rules = Self.rules
        rules[1]["json_file"] = "nowhere"
        let bundle = try Self.makeBundle(in: folder, rules: rules)
        #expect {
            _ = try StubBundleFormat.load(contentsOf: bundle)
        } throws: { error in
            let text = "\(error)"
            return text.contains("stubsRules.plist: at $[1].json_file: expected a response file for rule 2")
                && text.contains("nowhere.json")
        }
    }

    @Test("Mistakes are errors naming the entry and the key: a misspelt key, a bad status, a regex with lookahead, a file outside")
    func mistakes() throws {
        let cases: [([String: Any], String)] = [
            (["matching_url": "/a", "json_fil": "user"], #"at $[0].json_fil: expected a known member of rule 1; did you mean "json_file"?"#),
            (["matching_url": "/a", "status_code": "ok"], #"at $[0].status_code: expected an integer, found "ok""#),
            (["matching_url": "/a", "status_code": 42], "at $[0].status_code: expected a status from 100 to 999"),
            (["matching_url": "^/(?=(a+)+$)"], "at $[0].matching_url: expected a usable regular expression"),
            (["json_file": "user"], "at $[0].matching_url: expected a regular expression over the absolute URL, found nothing"),
            (["matching_url": "/a", "json_file": "../secret"], "at $[0].json_file: expected a file inside"),
        ]
        for (rule, message) in cases {
            let folder = try TemporaryFolder()
            try folder.write("secret.json", "{}")
            let bundle = try Self.makeBundle(in: folder, rules: [rule])
            #expect {
                _ = try CassetteFile.load(bundle)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test("docs/team-formats.md: the stubsRules.plist example loads and answers as described")
    func documentedExample() throws {
        let docs = packageRoot.appendingPathComponent("docs/team-formats.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: "```xml\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let plist = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"# + text[start.upperBound..<end.lowerBound] + "</plist>"
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("login.bundle"), withIntermediateDirectories: true)
        try folder.write("login.bundle/stubsRules.plist", plist)
        try folder.write("login.bundle/user.json", #"{"id": 42}"#)
        try folder.write("login.bundle/login_failed.json", #"{"error": "bad password"}"#)
        let engine = try CassetteFile.load(folder.file("login.bundle")).makeEngine()
        #expect(engine.match(Request(url: "https://api.example.com/users/42")).hit?.track.response?.status == 200)
        #expect(engine.match(Request(method: "POST", url: "https://api.example.com/login")).hit?.track.response?.status == 401)
    }

    @Test("A plist whose top level is not a list of rules is an error")
    func notAList() throws {
        let folder = try TemporaryFolder()
        let data = try PropertyListSerialization.data(fromPropertyList: ["matching_url": "/a"], format: .xml, options: 0)
        #expect {
            _ = try StubBundleFormat.decode(Array(data), file: "stubsRules.plist", bundle: folder.url)
        } throws: { error in
            "\(error)".contains("stubsRules.plist: at $: expected an array of {matching_url, json_file, status_code, http_method} rules")
        }
    }
}
