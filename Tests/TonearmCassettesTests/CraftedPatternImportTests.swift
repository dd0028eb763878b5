import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Every place a user writes a pattern refuses what the rule set refuses (constructs a linear-time
/// matcher cannot run, named with their offset), pointing into the document; and accepts the crafted
/// patterns that used to stall the server, which now match in linear time.
@Suite("Crafted patterns at import")
struct CraftedPatternImportTests {
    static let lookahead = "^/(?=(a+)+$)"
    static let refusal = "lookahead `(?=` at offset 2 is not supported"

    @Test("rule files (JSON and YAML): url, path and pattern, and query, header and body conditions")
    func ruleFiles() throws {
        let cases: [(String, String)] = [
            (#"{"rules": [{"name": "u", "pattern": "\#(Self.lookahead)"}]}"#, "$.rules[0].pattern"),
            (#"{"rules": [{"name": "p", "path": "\#(Self.lookahead)"}]}"#, "$.rules[0].path"),
            (#"{"rules": [{"name": "h", "pattern": "^/", "requestHeaders": {"A": {"matches": "\#(Self.lookahead)"}}}]}"#, "$.rules[0].requestHeaders.A.matches"),
            (#"{"rules": [{"name": "q", "pattern": "^/", "query": {"q": {"matches": "\#(Self.lookahead)"}}}]}"#, "$.rules[0].query.q.matches"),
        ]
        for (json, path) in cases {
            let error = try #require(throws: CassetteError.self) { try RuleFileFormat.decode(Array(json.utf8), syntax: .json, file: "r.json") }
            #expect(error.path == path, "\(error)")
            #expect(error.found?.contains(Self.refusal) == true, "\(error)")
        }
        let yaml = "rules:\n  - name: back\n    pattern: '^/(a)\\1$'\n"
        let error = try #require(throws: CassetteError.self) { try RuleFileFormat.decode(Array(yaml.utf8), syntax: .yaml, file: "r.yaml") }
        #expect(error.line == 3)
        #expect(error.found?.contains("backreference `\\1` at offset 5 is not supported") == true, "\(error)")
    }

    @Test("TONEARM_STUBS entries")
    func environmentStubs() throws {
        let json = #"[{"pattern": "^/(?>a+)b"}]"#
        let error = try #require(throws: CassetteError.self) {
            try StubSchema.decode(Array(json.utf8), syntax: .json, file: "TONEARM_STUBS", options: StubSchema.Options(urlMeaning: .exact))
        }
        #expect(error.found?.contains("atomic group `(?>` at offset 2 is not supported") == true, "\(error)")
    }

    @Test("stub bundles' matching_url")
    func stubBundle() throws {
        let folder = try TemporaryFolder()
        let bundle = try StubBundleTests.makeBundle(in: folder, rules: [["matching_url": Self.lookahead, "json_file": "user"]])
        #expect {
            _ = try CassetteFile.load(bundle)
        } throws: { error in
            "\(error)".contains("$[0].matching_url") && "\(error)".contains(Self.refusal)
        }
    }

    @Test("WireMock mapping files: urlPattern, urlPathPattern and matches conditions")
    func wireMockMappings() throws {
        let cases: [(String, String)] = [
            (#"{"request": {"urlPattern": "/(?<=x)a"}, "response": {}}"#, "lookbehind `(?<=`"),
            (#"{"request": {"urlPathPattern": "/a++"}, "response": {}}"#, "possessive quantifier `++`"),
            (#"{"request": {"urlPath": "/x", "headers": {"A": {"matches": "(?!x)"}}}, "response": {}}"#, "negative lookahead `(?!`"),
            (#"{"request": {"urlPath": "/x", "queryParameters": {"q": {"matches": "(a)\\1"}}}, "response": {}}"#, "backreference `\\1`"),
        ]
        for (json, construct) in cases {
            let folder = try TemporaryFolder()
            try FileManager.default.createDirectory(at: folder.file("mappings"), withIntermediateDirectories: true)
            try folder.write("mappings/stub.json", json)
            #expect {
                _ = try CassetteFile.load(folder.file("mappings/stub.json"))
            } throws: { error in
                "\(error)".contains("stub.json") && "\(error)".contains("\(construct) at offset") && "\(error)".contains("is not supported")
            }
        }
    }

    @Test("the crafted patterns that stalled the server load, and their rules answer on long URLs")
    func craftedPatternsLoad() throws {
        let json = #"{"rules": [{"name": "x", "pattern": "^/(?x)(a | a)+$", "target": "path", "status": 201}, {"name": "ab", "pattern": "^/.*a.*b$", "target": "path", "status": 202}]}"#
        let imported = try RuleFileFormat.decode(Array(json.utf8), syntax: .json, file: "r.json")
        let engine = ReplayEngine(tracks: [], strategy: .rules(try RuleSet(imported.rules)))
        let long = "http://h.example/" + String(repeating: "a", count: 80_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(engine.match(Request(url: "http://h.example/" + String(repeating: "a", count: 25))).hit?.source == .rule(name: "x", position: 0))
            #expect(engine.match(Request(url: long + "!")).hit == nil)
            #expect(engine.match(Request(url: long + "b")).hit?.source == .rule(name: "ab", position: 1))
        }
        #expect(elapsed < .seconds(5))
    }
}
