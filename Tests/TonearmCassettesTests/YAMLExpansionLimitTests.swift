import Testing
import Tonearm
@testable import TonearmCassettes

/// YAML aliases share one copy in the text but are expanded when read, so a few hundred bytes can stand
/// for billions of nodes. Such files are refused, before any tree is built, with the file and position.
@Suite("YAML alias expansion")
struct YAMLExpansionLimitTests {
    /// The classic "billion laughs": each level is a list of ten aliases to the level before.
    static func laughs(levels: Int) -> String {
        var text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1..<levels {
            let items = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            text += "l\(level): &l\(level) [\(items)]\n"
        }
        return text + "rules: []\n"
    }

    static func load(_ text: String) throws(CassetteError) -> CassetteImport {
        try RuleFileFormat.decode(Array(text.utf8), syntax: .yaml, file: "bomb.yaml")
    }

    @Test("an alias bomb is refused naming the file, line and column of the alias", arguments: [7, 9, 12])
    func billionLaughs(levels: Int) throws {
        let text = Self.laughs(levels: levels)
        #expect(text.utf8.count < 1_000)
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.file == "bomb.yaml")
        #expect(error.expected == "aliases that expand to at most 100000 nodes")
        // Aliases add 110 + 1,110 + 11,110 nodes on lines 2-4; the 8th alias to l3 (11,111 nodes each) on
        // line 5 takes the total past 100,000.
        #expect(error.line == 5)
        #expect(error.column == 45)
        #expect(error.found == "alias *l3 taking the document past that")
        #expect(error.description == "bomb.yaml:5:45: expected aliases that expand to at most 100000 nodes, found alias *l3 taking the document past that")
    }

    @Test("long scalars repeated through aliases are bounded in bytes")
    func scalarBytes() throws {
        let big = String(repeating: "x", count: 1 << 20)
        let text = "big: &big \(big)\nmany: [" + Array(repeating: "*big", count: 17).joined(separator: ", ") + "]\nrules: []\n"
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected == "aliases that expand to at most 16777216 bytes of scalars")
        #expect(error.line == 2)
    }

    @Test("aliases cannot nest a document deeper than the JSON reader allows")
    func depth() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let text = "a: &a \(deep)\nb: [\(Array(repeating: "[", count: 250).joined())*a\(Array(repeating: "]", count: 250).joined())]\nrules: []\n"
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected == "at most 512 levels of nesting")
        #expect(error.found?.hasPrefix("alias *a nesting") == true)
        #expect(error.line == 2)
    }

    @Test("literal nesting past the limit is refused too")
    func literalDepth() throws {
        let text = "rules: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n"
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected == "at most 512 levels of nesting")
    }

    @Test("ordinary anchors and aliases still load, expanded")
    func ordinaryAliases() throws {
        let text = """
            x-shared: &json
              Content-Type: application/json
            rules:
              - name: one
                path: '^/one$'
                status: 200
                headers: *json
                body: '1'
              - name: two
                path: '^/two$'
                status: 201
                headers: *json
                body: '2'
            """
        let imported = try Self.load(text)
        #expect(imported.rules.map(\.name) == ["one", "two"])
        for rule in imported.rules {
            guard case .response(let response) = rule.outcome else { Issue.record("not a response"); continue }
            #expect(response.headers.first(named: "Content-Type") == "application/json")
        }
    }
}
