import Testing
import Tonearm
@testable import TonearmCassettes

/// YAML aliases share one copy in the text but are expanded when read, so a few hundred bytes can stand
/// for billions of nodes. Such files are refused, before anything walks them expanded, with the file and
/// position.
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

    @Test("an alias bomb is refused naming the file, and the line and column of the list holding the alias", arguments: [7, 9, 12])
    func billionLaughs(levels: Int) throws {
        let text = Self.laughs(levels: levels)
        #expect(text.utf8.count < 1_000)
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.file == "bomb.yaml")
        #expect(error.expected == "aliases that expand to at most 100000 nodes")
        // Aliases add 110 + 1,110 + 11,110 nodes on lines 2-4; the 8th alias to l3 (11,111 nodes each) on
        // line 5 takes the total past 100,000. A composed alias carries its anchor's position, so the
        // position given is the list's (its anchor `&l4` at column 5).
        #expect(error.line == 5)
        #expect(error.column == 5)
        #expect(error.found == "alias *l3 taking the document past that")
        #expect(error.description == "bomb.yaml:5:5: expected aliases that expand to at most 100000 nodes, found alias *l3 taking the document past that")
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

    @Test("an alias used as a mapping key is refused before Yams composes (it hashes keys expanded)")
    func aliasAsKey() throws {
        // Composing this would hash a billion nodes: the refusal has to come before.
        let text = Self.laughs(levels: 9) + "*l8 : used as a key\n"
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected == "an alias outside mapping keys")
        #expect(error.line == 11)
        #expect(error.column == 1)
    }

    @Test("aliases inside a complex key are refused too", arguments: ["? [*l8, x]\n: 1\n", "[*l8]: 1\n", "{a: *l8}: 1\n", "{\"a\":*l8}: 1\n"])
    func aliasInComplexKey(key: String) throws {
        let text = Self.laughs(levels: 9) + key
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected.hasPrefix("complex mapping keys"))
        #expect(error.line == 11)
    }

    @Test("text that only looks like keys or aliases inside scalars loads")
    func lookalikesInScalars() throws {
        let text = """
            x-doc: "What? Yes: it is *bold* and a *pointer : here"
            x-list: [a, b]
            x-block: |
              *emphasis* at a line start, and a question? here: with a colon
            rules: []
            """
        #expect(try Self.load(text).rules.isEmpty)
    }

    @Test("nesting as deep as libyaml allows is refused without exhausting the stack", arguments: [513, 999])
    func deepNestingOnATaskThread(levels: Int) async throws {
        let text = "rules: " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "\n"
        let error = try #require(throws: CassetteError.self) { try Self.load(text) }
        #expect(error.expected == "at most 512 levels of nesting")
    }
}
