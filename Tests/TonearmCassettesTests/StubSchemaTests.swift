import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

@Suite("Stub schema")
struct StubSchemaTests {
    private func rules(_ json: String, file: String = "rules.json") throws(CassetteError) -> CassetteImport {
        try RuleFileFormat.decode(Array(json.utf8), syntax: .json, file: file)
    }

    @Test("a misspelt member is an error naming the rule and suggesting the known member")
    func misspeltMember() throws {
        let error = try #require(throws: CassetteError.self) {
            try rules(#"[{"name": "create", "url": "x", "bodyy": "typo", "stauts": 201}]"#)
        }
        #expect(error.path == "$[0].bodyy")
        #expect(error.description == #"rules.json:1:42: at $[0].bodyy: expected a known member of rule "create"; did you mean "body"?, found unknown member "bodyy""#)
        let yaml = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(Array("- url: x\n  stauts: 201\n".utf8), syntax: .yaml, file: "r.yaml")
        }
        #expect(yaml.description.contains(#"did you mean "status"?"#))
        #expect(yaml.line == 2)
    }

    @Test("a name far from every member is listed against all known members")
    func unknownMember() throws {
        let error = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "colour": "red"}]"#) }
        #expect(error.expected.contains(#""requestHeaders""#))
        #expect(!error.expected.contains("did you mean"))
    }

    @Test("a pattern a linear-time matcher cannot run is refused where it is written, before any match")
    func unsupportedPatternPointsIntoTheDocument() throws {
        let error = try #require(throws: CassetteError.self) { try rules(#"[{"name": "slow", "path": "^/(?=(a+)+$)"}]"#) }
        #expect(error.path == "$[0].path")
        #expect(error.line == 1)
        #expect(error.found?.contains("lookahead `(?=` at offset 2 is not supported") == true)
        let condition = try #require(throws: CassetteError.self) {
            try rules(#"[{"url": "x", "query": {"q": {"matches": "(x)\\1"}}}]"#)
        }
        #expect(condition.path == "$[0].query.q.matches")
    }

    @Test("top-level x- members hold YAML anchors; any other unknown top-level member is an error")
    func extensionMembers() throws {
        let yaml = "x-json: &json\n  Content-Type: application/json\nrules:\n  - path: '^/a$'\n    headers: *json\n"
        let imported = try RuleFileFormat.decode(Array(yaml.utf8), syntax: .yaml, file: "r.yaml")
        #expect(imported.rules.first?.outcome == .response(Response(status: 200, headers: [HeaderField("Content-Type", "application/json")])))
        let typo = try #require(throws: CassetteError.self) { try rules(#"{"rulez": [], "rules": []}"#) }
        #expect(typo.path == "$.rulez")
    }

    @Test("query, header and JSON-body conditions restrict what a rule answers")
    func conditions() throws {
        let imported = try rules(#"""
            [
              {"name": "page 2", "url": ".*", "query": {"page": "2"}, "body": "two"},
              {"name": "admin", "url": ".*", "requestHeaders": {"Authorization": {"matches": "^Bearer admin"}, "X-Debug": {"absent": true}}, "body": "admin"},
              {"name": "ada", "method": "POST", "url": ".*", "requestBody": {"/user/id": 42, "/user/name": {"contains": "Ad"}}, "status": 201},
              {"name": "fallback", "url": ".*", "status": 404, "priority": 9}
            ]
            """#)
        let engine = try imported.makeEngine()
        func answer(_ request: Request) -> String? { engine.match(request).hit?.track.name }
        #expect(answer(Request(url: "https://a.example/list?page=2")) == "page 2")
        #expect(answer(Request(url: "https://a.example/list?page=3")) == "fallback")
        #expect(answer(Request(url: "https://a.example/", headers: [HeaderField("Authorization", "Bearer admin-1")])) == "admin")
        #expect(answer(Request(url: "https://a.example/", headers: [HeaderField("Authorization", "Bearer admin-1"), HeaderField("X-Debug", "1")])) == "fallback")
        let post = { (body: String) in
            Request(method: "POST", url: "https://a.example/users", headers: [HeaderField("Content-Type", "application/json")], body: body)
        }
        #expect(answer(post(#"{"user": {"id": 42, "name": "Ada"}}"#)) == "ada")
        #expect(answer(post(#"{"user": {"id": 43, "name": "Ada"}}"#)) == "fallback")
    }

    @Test("a condition with an unknown operator or a broken regex points at it")
    func badConditions() throws {
        let typo = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "query": {"a": {"equal": "1"}}}]"#) }
        #expect(typo.path == "$[0].query.a.equal")
        #expect(typo.description.contains(#"did you mean "equals"?"#))
        let regex = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "requestHeaders": {"A": {"matches": "("}}}]"#) }
        #expect(regex.path == "$[0].requestHeaders.A.matches")
        let pointer = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "requestBody": {"user": "1"}}]"#) }
        #expect(pointer.path == "$[0].requestBody.user")
    }

    @Test("errors name the source, line:column, path and what was expected and found")
    func errorFormat() throws {
        let error = try #require(throws: CassetteError.self) {
            try StubSchema.decode(
                Array(#"[{"url": "https://x", "status": "ok"}]"#.utf8), syntax: .json, file: "TONEARM_STUBS",
                options: StubSchema.Options(urlMeaning: .exact))
        }
        #expect(error.description == "TONEARM_STUBS:1:33: at $[0].status: expected an integer, found a string")
        let both = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "body": "a", "json": {}}]"#) }
        #expect(both.description.contains(#"only one of "body" and "json""#))
        let errorAndStatus = try #require(throws: CassetteError.self) { try rules(#"[{"url": "x", "error": "timedOut", "status": 500}]"#) }
        #expect(errorAndStatus.path == "$[0].status")
    }

    @Test("JSON bodies keep big integers, fractions and member order exactly")
    func faithfulJSON() throws {
        let imported = try rules(#"[{"url": "x", "json": {"b": 12345678901234567890, "a": [1.50, 9007199254740993], "s": "\u00e9"}}]"#)
        #expect(imported.rules[0].outcome == .response(Response(
            headers: [HeaderField("Content-Type", "application/json")],
            body: #"{"b":12345678901234567890,"a":[1.50,9007199254740993],"s":"\u00e9"}"#)))
    }

    @Test("exact stubs queue up in declared order; aliases pattern and error are accepted")
    func exactStubs() throws {
        let stubs = try StubSchema.decode(
            Array(#"""
                [{"url": "https://a.example/x", "body": "1"}, {"url": "https://a.example/x", "error": "timedOut"},
                 {"pattern": "^https://b", "target": "url", "transportError": "cannotFindHost"}]
                """#.utf8), syntax: .json, file: nil, options: StubSchema.Options(urlMeaning: .exact))
        #expect(stubs.tracks.map(\.outcome) == [.response(Response(body: "1")), .transportError(.timedOut)])
        #expect(stubs.rules.map(\.pattern) == ["^https://b"])
    }

    @Test("the request document reader refuses unknown members and keeps a JSON body as written")
    func requestDocument() throws {
        let request = try StubSchema.decodeRequest(
            Array(#"{"method": "POST", "url": "https://a.example/", "headers": [["A", "1"]], "body": {"z": 1, "a": 12345678901234567890}}"#.utf8),
            file: "standard input")
        #expect(request.body == Array(#"{"z":1,"a":12345678901234567890}"#.utf8))
        #expect(request.headers == [HeaderField("A", "1")])
        let error = try #require(throws: CassetteError.self) {
            try StubSchema.decodeRequest(Array(#"{"url": "x", "methd": "GET"}"#.utf8), file: "standard input")
        }
        #expect(error.description.contains(#"did you mean "method"?"#))
    }
}

@Suite("Rule body files stay in the rules folder")
struct BodyFileConfinementTests {
    @Test("a relative path that climbs out with .. is refused, naming the rule and the path")
    func dotDotEscape() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("rules"), withIntermediateDirectories: true)
        try folder.write("secret.txt", "secret")
        try folder.write("rules/rules.json", #"[{"name": "leak", "url": "x", "file": "../secret.txt"}]"#)
        let error = try #require(throws: CassetteError.self) { try RuleFileFormat.load(contentsOf: folder.file("rules/rules.json")) }
        #expect(error.path == "$[0].file")
        #expect(error.description.contains(#"rule "leak""#))
        #expect(error.description.contains(#""../secret.txt""#))
        #expect(error.description.contains("outside"))
        let deep = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(
                Array(#"[{"url": "x", "file": "../../../../../../etc/hostname"}]"#.utf8), syntax: .json,
                baseDirectory: folder.file("rules"))
        }
        #expect(deep.path == "$[0].file")
    }

    @Test("an absolute path is refused")
    func absolutePath() throws {
        let folder = try TemporaryFolder()
        try folder.write("rules.json", #"[{"url": "x", "file": "/etc/hostname"}]"#)
        let error = try #require(throws: CassetteError.self) { try RuleFileFormat.load(contentsOf: folder.file("rules.json")) }
        #expect(error.description.contains("absolute path"))
        #expect(error.description.contains(#"rule "rule 1""#))
    }

    @Test("a symbolic link pointing out of the folder is refused; one pointing inside is followed")
    func symbolicLinks() throws {
        let outside = try TemporaryFolder()
        try outside.write("secret.txt", "secret")
        let folder = try TemporaryFolder()
        try folder.write("real.txt", "real")
        try FileManager.default.createSymbolicLink(at: folder.file("out.txt"), withDestinationURL: outside.file("secret.txt"))
        try FileManager.default.createSymbolicLink(at: folder.file("in.txt"), withDestinationURL: folder.file("real.txt"))
        try folder.write("escape.json", #"[{"url": "x", "file": "out.txt"}]"#)
        try folder.write("inside.json", #"[{"url": "x", "file": "in.txt"}]"#)
        #expect(throws: CassetteError.self) { try RuleFileFormat.load(contentsOf: folder.file("escape.json")) }
        let inside = try RuleFileFormat.load(contentsOf: folder.file("inside.json"))
        #expect(inside.rules.first?.outcome == .response(Response(body: "real")))
    }

    @Test("a wider root (a server's root directory) allows files beside the rules folder")
    func widerRoot() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("rules"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.file("bodies"), withIntermediateDirectories: true)
        try folder.write("bodies/a.txt", "shared")
        try folder.write("rules/rules.json", #"[{"url": "x", "file": "../bodies/a.txt"}]"#)
        let imported = try RuleFileFormat.load(contentsOf: folder.file("rules/rules.json"), bodyRoot: folder.url)
        #expect(imported.rules.first?.outcome == .response(Response(body: "shared")))
        #expect(throws: CassetteError.self) { try RuleFileFormat.load(contentsOf: folder.file("rules/rules.json")) }
    }

    @Test("documents without a folder (TONEARM_STUBS) cannot name files")
    func noFolder() throws {
        #expect(throws: CassetteError.self) {
            try StubSchema.decode(
                Array(#"[{"url": "x", "file": "a.txt"}]"#.utf8), syntax: .json, file: "TONEARM_STUBS",
                options: StubSchema.Options(urlMeaning: .exact))
        }
    }
}

/// The examples of docs/cassette-format.md's "Stub schema" section, loaded as users would load them.
@Suite("Stub schema documentation examples")
struct StubSchemaDocumentationTests {
    /// The fenced blocks of the section, by language.
    static func examples() throws -> [(language: String, text: String)] {
        let docs = packageRoot.appendingPathComponent("docs/cassette-format.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Stub schema\n").last?.components(separatedBy: "\n## ").first)
        var blocks: [(String, String)] = []
        var current: (String, [Substring])?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append((open.0, open.1.joined(separator: "\n")))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else if current != nil {
                current?.1.append(line)
            }
        }
        return blocks
    }

    @Test("the YAML rule file example loads and answers as described")
    func yamlExample() throws {
        let yaml = try #require(try Self.examples().first { $0.language == "yaml" }).text
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("responses"), withIntermediateDirectories: true)
        try folder.write("responses/user.json", #"{"id":1}"#)
        try folder.write("rules.yaml", yaml)
        let engine = try RuleFileFormat.load(contentsOf: folder.file("rules.yaml")).makeEngine()
        func answer(_ request: Request) -> Track? { engine.match(request).hit?.track }
        #expect(answer(Request(url: "https://api.example.com/users/1"))?.response?.body == Array(#"{"id":1}"#.utf8))
        #expect(answer(Request(url: "https://api.example.com/items?page=2"))?.response?.body == Array(#"{"items":[3,4],"next":null}"#.utf8))
        #expect(answer(Request(url: "https://api.example.com/items?page=1"))?.name == "fallback")
        #expect(answer(Request(url: "https://x.example/search", headers: [HeaderField("Authorization", "Bearer admin-7")]))?.outcome
            == .transportError(.notConnectedToInternet))
        let create = Request(
            method: "POST", url: "https://api.example.com/users", headers: [HeaderField("Content-Type", "application/json")],
            body: #"{"name": "Ada", "age": 36.0, "tags": []}"#)
        #expect(answer(create)?.response?.body == Array(#"{"id":9007199254740993}"#.utf8))
    }

    @Test("the TONEARM_STUBS and request document examples decode; the error examples are what the decoder says")
    func jsonExamples() throws {
        let examples = try Self.examples()
        let json = examples.filter { $0.language == "json" }.map(\.text)
        try #require(json.count == 2)
        let stubs = try StubSchema.decode(Array(json[0].utf8), syntax: .json, file: "TONEARM_STUBS", options: StubSchema.Options(urlMeaning: .exact))
        #expect(stubs.tracks.count == 3)
        #expect(stubs.tracks[0].response?.body == Array(#"{"name":"Ada","id":9007199254740993}"#.utf8))
        #expect(stubs.rules.map(\.query) == [[QueryCondition("page", .equals("2"))], []])
        let request = try StubSchema.decodeRequest(Array(json[1].utf8), file: "standard input")
        #expect(request.body == Array(#"{"name":"Ada","id":12345678901234567890}"#.utf8))

        let messages = try #require(examples.first { $0.language == "text" }).text.split(separator: "\n").map(String.init)
        let status = try #require(throws: CassetteError.self) {
            try StubSchema.decode(Array(#"[{"url": "https://x", "status": "ok"}]"#.utf8), syntax: .json, file: "TONEARM_STUBS", options: StubSchema.Options(urlMeaning: .exact))
        }
        let typo = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(Array(#"[{"name": "create", "url": "x", "bodyy": "typo", "stauts": 201}]"#.utf8), syntax: .json, file: "rules.json")
        }
        #expect(messages == [status.description, typo.description])
    }
}
