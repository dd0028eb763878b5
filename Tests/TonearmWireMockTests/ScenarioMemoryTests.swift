import Foundation
import Testing
import Tonearm
@testable import Tonearm
@testable import TonearmServer
import TonearmServerTestSupport
@testable import TonearmWireMock

/// Scenario steps belong to the mappings and engines that hold them: a long-running server whose admin
/// clients add and remove scenario mappings keeps only the live ones.
@Suite("WireMock admin API: scenario memory")
struct ScenarioMemoryTests {
    private static func mapping(scenario: String, url: String) -> String {
        #"{"scenarioName":"\#(scenario)","requiredScenarioState":"Started","newScenarioState":"next","request":{"method":"GET","url":"\#(url)"},"response":{"status":200}}"#
    }

    @Test("Adding and removing 3,000 scenario mappings frees every scenario step and leaves no scenario behind")
    func addedAndRemoved() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        // A long name per scenario, as a generated test suite might use: kept, they would add up.
        let padding = String(repeating: "s", count: 1024)
        weak var firstStep: ScenarioStep.Strings?
        for number in 0..<3000 {
            let created = try await TestClient.send(
                base + "/__admin/mappings", method: "POST", headers: [("Content-Type", "application/json")],
                body: Self.mapping(scenario: "scenario-\(number)-\(padding)", url: "/scenario/\(number)"))
            #expect(created.status == 201)
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["id"] as? String)
            #expect(try await TestClient.send(base + "/scenario/\(number)").status == 200)
            if number == 0, case .track(let track)? = server.core.wireMock?.mapping(id)?.stub { firstStep = track.scenario?.strings }
            #expect(try await TestClient.send(base + "/__admin/mappings/\(id)", method: "DELETE").status == 200)
        }
        #expect(try await TestClient.send(base + "/__admin/mappings", method: "DELETE").status == 200)
        #expect(firstStep == nil, "a removed mapping's scenario step is still held")
        #expect(server.core.wireMock?.engine.scenarios.isEmpty == true)
        try await server.stop()
    }

    @Test("A scenario step's strings are freed with the last track holding it")
    func freedWithTheTrack() {
        weak var strings: ScenarioStep.Strings?
        do {
            let step = ScenarioStep("checkout-\(UUID())", requiredState: ScenarioStep.startedState, newState: "paid")
            strings = step.strings
            let engine = ReplayEngine(
                tracks: [Track(request: Request(method: "GET", url: "https://shop.example/cart"), response: Response(status: 200), scenario: step)],
                strategy: .repeat)
            #expect(engine.scenarios.map(\.name) == [step.name])
            #expect(strings != nil)
        }
        #expect(strings == nil)
    }
}
