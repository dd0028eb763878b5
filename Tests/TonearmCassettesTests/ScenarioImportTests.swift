import Foundation
import Testing
import Tonearm
import TonearmTestSupport
@testable import TonearmCassettes

/// Scenarios read from WireMock mappings, rule files and native cassettes, enforced by the engine, and
/// written back by the native writer.
@Suite("Scenarios in files")
struct ScenarioImportTests {
    static let todo = "wiremock/mappings/wiremock-with-several-mappings-in-one-file.json"
    static let items = Request(method: "GET", url: "http://localhost:8080/todo/items")
    static let cancel = Request(method: "POST", url: "http://localhost:8080/todo/items", body: "Cancel newspaper subscription")

    static func body(_ result: MatchResult) -> String? {
        result.hit?.track.response.map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test("WireMock's to-do scenario (mappings folder, __files beside it) walks from Started as WireMock does",
          .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func wireMockWalk() throws {
        // The corpus has no body.xml; give the mapping its __files folder with one.
        let files = try TemporaryFolder()
        try files.write("body.xml", "<items><item>Buy milk</item><item>Cancel newspaper subscription</item></items>")
        let imported = try WireMockFormat.load(contentsOf: Conformance.url(Self.todo), bodyFiles: files.url)
        #expect(!imported.warnings.contains { $0.message.contains("scenario") }, "scenarios are imported, not warned about")
        #expect(imported.cassette.tracks.map(\.scenario) == [
            ScenarioStep("To do list", requiredState: "Started"),
            ScenarioStep("To do list", requiredState: "Cancel newspaper item added"),
        ])
        #expect(imported.rules.map(\.scenario) == [
            ScenarioStep("To do list", requiredState: "Started", newState: "Cancel newspaper item added"),
        ])

        let engine = try imported.makeEngine()
        #expect(Self.body(engine.match(Self.items)) == "<items><item>Buy milk</item></items>")
        #expect(engine.match(Self.cancel).hit?.track.response?.status == 201)
        #expect(engine.scenario(named: "To do list")?.state == "Cancel newspaper item added")
        #expect(Self.body(engine.match(Self.items))?.contains("Cancel newspaper subscription") == true)
        let miss = try #require(engine.match(Self.cancel).missReport)
        #expect(miss.reason.description.contains(
            #"scenario "To do list" is in state "Cancel newspaper item added", rule "wiremock-with-several-mappings-in-one-file[1]" needs "Started""#))

        let scenario = try #require(engine.scenarios.first)
        #expect(scenario.possibleStates == ["Started", "Cancel newspaper item added"])
        #expect(scenario.entries.count == 3)
        try engine.resetScenario("To do list")
        #expect(Self.body(engine.match(Self.items)) == "<items><item>Buy milk</item></items>")
    }

    @Test("states without a scenarioName are reported, not imported")
    func wireMockStatesWithoutName() throws {
        let json = #"{"request": {"method": "GET", "url": "/x"}, "response": {"status": 200}, "requiredScenarioState": "Started"}"#
        let imported = try WireMockFormat.decode(Array(json.utf8), file: "orphan.json")
        #expect(imported.cassette.tracks.first?.scenario == nil)
        #expect(imported.warnings.map(\.message) == [#"scenario states without a "scenarioName" belong to no scenario and were not imported"#])
    }

    static let ruleFile = """
        - name: empty cart
          url: '^https://shop\\.example/cart$'
          body: '[]'
          scenario: {name: checkout, requiredState: Started}
        - name: pay
          method: POST
          url: '^https://shop\\.example/pay$'
          status: 201
          scenario: {name: checkout, requiredState: Started, newState: Paid}
        - name: paid cart
          url: '^https://shop\\.example/cart$'
          body: '[{"order": 1}]'
          scenario: {name: checkout, requiredState: Paid}
        """

    @Test("a rule file's scenario (the docs' example) is enforced")
    func ruleFile() throws {
        let imported = try RuleFileFormat.decode(Array(Self.ruleFile.utf8), syntax: .yaml, file: "rules.yaml")
        #expect(imported.rules[1].scenario == ScenarioStep("checkout", requiredState: "Started", newState: "Paid"))
        let engine = try imported.makeEngine()
        let cart = Request(url: "https://shop.example/cart")
        #expect(Self.body(engine.match(cart)) == "[]")
        #expect(engine.match(Request(method: "POST", url: "https://shop.example/pay")).hit?.track.response?.status == 201)
        #expect(Self.body(engine.match(cart)) == #"[{"order": 1}]"#)
    }

    @Test("a scenario without a name, or with an unknown member, is an error pointing into the file")
    func ruleFileErrors() throws {
        let missing = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(Array(#"[{"url": "x", "scenario": {"requiredState": "A"}}]"#.utf8), syntax: .json, file: "r.json")
        }
        #expect(missing.path == "$[0].scenario.name")
        #expect(missing.description.contains("name"))
        let misspelt = try #require(throws: CassetteError.self) {
            try RuleFileFormat.decode(
                Array(#"[{"url": "x", "scenario": {"name": "s", "requiredSate": "A"}}]"#.utf8), syntax: .json, file: "r.json")
        }
        #expect(misspelt.path == "$[0].scenario.requiredSate")
        #expect(misspelt.description.contains("did you mean \"requiredState\""))
    }

    @Test("TONEARM_STUBS' exact stubs take a scenario too")
    func exactStubs() throws {
        let stubs = try StubSchema.decode(
            Array(#"[{"url": "https://a.example/x", "scenario": {"name": "s", "newState": "B"}}]"#.utf8),
            syntax: .json, file: "TONEARM_STUBS", options: StubSchema.Options(urlMeaning: .exact))
        #expect(stubs.tracks.first?.scenario == ScenarioStep("s", newState: "B"))
    }

    @Test("the native writer writes scenarios and the reader loads them back: equal cassette, same bytes")
    func nativeRoundTrip() throws {
        let cassette = Cassette(name: "checkout", tracks: [
            Track(request: Request(url: "https://shop.example/cart"), response: Response(body: "[]"),
                  scenario: ScenarioStep("checkout", requiredState: "Started")),
            Track(request: Request(method: "POST", url: "https://shop.example/pay"), response: Response(status: 201),
                  scenario: ScenarioStep("checkout", requiredState: "Started", newState: "Paid")),
            Track(request: Request(url: "https://shop.example/ping"), response: Response(),
                  scenario: ScenarioStep("any", newState: "Pinged")),
            Track(request: Request(url: "https://shop.example/plain"), response: Response()),
        ])
        let bytes = try NativeFormat.encode(cassette)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: #""scenario": {"#).count == 4, "three tracks have a scenario")
        #expect(text.contains(#""name": "checkout","#) && text.contains(#""requiredState": "Started","#)
            && text.contains(#""newState": "Paid""#))
        let loaded = try NativeFormat.decode(bytes, file: "checkout.json")
        #expect(loaded == cassette)
        #expect(try NativeFormat.encode(loaded) == bytes)
    }

    @Test("WireMock → native → load keeps every scenario", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func wireMockToNative() throws {
        let imported = try WireMockFormat.load(contentsOf: Conformance.url(Self.todo))
        let loaded = try NativeFormat.decode(try NativeFormat.encode(imported.cassette), file: "todo.json")
        #expect(loaded.tracks.map(\.scenario) == imported.cassette.tracks.map(\.scenario))
        #expect(loaded.tracks.allSatisfy { $0.scenario != nil })
    }

    @Test("older cassettes that kept a WireMock scenario as hints load it as the track's scenario")
    func legacyHints() throws {
        let json = #"""
            {"formatVersion": 1, "tracks": [
              {"request": {"method": "GET", "url": "/todo"}, "response": {"status": 200},
               "hints": {"sequence": "To do list", "requiredState": "Started", "nextState": "Done"}},
              {"request": {"method": "GET", "url": "/feed"}, "response": {"status": 200}, "hints": {"sequence": "feed"}}
            ]}
            """#
        let loaded = try NativeFormat.decode(Array(json.utf8), file: "old.json")
        #expect(loaded.entries[0].track.scenario == ScenarioStep("To do list", requiredState: "Started", newState: "Done"))
        #expect(loaded.entries[0].hints.isEmpty, "the hints were the scenario")
        #expect(loaded.entries[1].track.scenario == nil)
        #expect(loaded.entries[1].hints == TrackHints(sequence: "feed"))
    }
}
