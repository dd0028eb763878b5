import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport

/// The bundled examples the README and demo use must load, be canonical, and answer their requests.
@Suite("Bundled examples")
struct ExampleTests {
    static let examples = packageRoot.appendingPathComponent("Examples")

    @Test("the example cassette is in canonical native form and replays")
    func cassette() throws {
        let url = Self.examples.appendingPathComponent("petstore.cassette.json")
        let bytes = Array(try Data(contentsOf: url))
        let cassette = try NativeFormat.decode(bytes, file: url.path)
        #expect(try NativeFormat.encode(cassette) == bytes)
        let engine = try CassetteImport(cassette: cassette).makeEngine()
        #expect(engine.match(Request(url: "https://petstore.example.com/health")).hit?.track.outcome == .transportError(.notConnectedToInternet))
    }

    @Test("the example rules and WireMock mappings load and answer")
    func rules() throws {
        let rules = try CassetteFile.load(Self.examples.appendingPathComponent("petstore.rules.yaml"))
        let engine = try rules.makeEngine()
        #expect(engine.match(Request(url: "https://petstore.example.com/v1/pets/7")).hit?.track.response?.status == 200)
        #expect(engine.match(Request(url: "https://elsewhere.example.com/")).hit?.track.response?.status == 404)
        let wiremock = try CassetteFile.load(Self.examples.appendingPathComponent("wiremock/mappings/pets.json"))
        #expect(wiremock.warnings.isEmpty)
        let stub = try wiremock.makeEngine().match(Request(url: "http://localhost:8080/v1/pets/7"))
        #expect(stub.hit?.track.response?.body.isEmpty == false)
    }
}

/// The cassette example of TonearmCassettes' "Cassette formats" article, verbatim, kept compiling and true.
@Suite("README cassette example")
struct ReadmeCassetteExampleTests {
    @Test func loadTheBundledCassetteIntoAnEngine() throws {
        // The example's relative path is the package root's, where `swift test` runs.
        try #require(FileManager.default.fileExists(atPath: "Examples/petstore.cassette.json"), "not run from the package root")
        let imported = try CassetteFile.load(URL(fileURLWithPath: "Examples/petstore.cassette.json"))
        let engine = try imported.makeEngine(strategy: .uniquePlay)   // tracks, then any rules the file holds
        let pet = Request(method: "POST", url: "https://petstore.example.com/v1/pets",
                          headers: [HeaderField("Content-Type", "application/json")], body: #"{"tag":"cat","name":"Moonage"}"#)
        let report = try #require(engine.match(pet).missReport)
        let difference = try #require(report.nearest.first?.differences.first?.jsonDifference, "expected a JSON body difference: \(report)")
        #expect(difference.pointer == "/tag")
    }
}
