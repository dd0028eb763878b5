import Foundation
import Testing
@testable import TonearmServer

/// Mappings created and deleted through the admin API, over and over, as a long-running test server
/// sees them: the engine's removed entries are reclaimed, and what stayed answers as before.
@Suite("WireMock admin API: long create/delete cycles")
struct WireMockCompactionTests {
    private static func post(_ base: String, _ body: String, method: String = "POST", path: String = "/__admin/mappings") async throws -> ClientResponse {
        try await TestClient.send(base + path, method: method, headers: [("Content-Type", "application/json")], body: body)
    }

    private static func id(_ response: ClientResponse) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return try #require(object?["id"] as? String, "no id in \(response.text)")
    }

    @Test("the engine holds the live mappings plus a bounded number of removed ones; shadowed, rule and scenario mappings survive compaction")
    func removedEntriesAreReclaimed() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        // What stays: an exact mapping, a rule, an exact mapping shadowed by a newer one, a scenario moved on.
        _ = try await Self.post(base, #"{"request":{"method":"GET","url":"/stays"},"response":{"body":"stays"}}"#)
        _ = try await Self.post(base, #"{"request":{"method":"GET","urlPathPattern":"/rule/[0-9]+"},"response":{"body":"rule"}}"#)
        _ = try await Self.post(base, #"{"request":{"method":"GET","url":"/shadow"},"response":{"body":"older"}}"#)
        let newer = try Self.id(try await Self.post(base, #"{"request":{"method":"GET","url":"/shadow"},"response":{"body":"newer"}}"#))
        _ = try await Self.post(
            base, #"{"scenarioName":"todo","requiredScenarioState":"Started","newScenarioState":"added","request":{"method":"POST","url":"/todo"},"response":{"status":201}}"#)
        _ = try await Self.post(
            base, #"{"scenarioName":"todo","requiredScenarioState":"added","request":{"method":"GET","url":"/todo"},"response":{"body":"one item"}}"#)
        #expect(try await TestClient.send(base + "/todo", method: "POST").status == 201)

        // More than twice the compaction floor of create/delete cycles, exact mappings and rules alike.
        let cycles = 2 * WireMockStubs.compactionFloor + 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<4 {
                group.addTask {
                    for cycle in stride(from: client, to: cycles, by: 4) {
                        let request = cycle.isMultiple(of: 2)
                            ? #"{"method":"GET","url":"/gone/\#(cycle)"}"# : #"{"method":"GET","urlPathPattern":"/gone/\#(cycle)/[a-z]+"}"#
                        let created = try await Self.post(base, #"{"request":\#(request),"response":{"body":"gone"}}"#)
                        #expect(created.status == 201)
                        #expect(try await TestClient.send(base + "/__admin/mappings/\(try Self.id(created))", method: "DELETE").status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }

        let engine = server.core.wireMock.engine
        // Live tracks: GET /stays, GET /shadow (the newer) and GET /todo; rules: /rule/[0-9]+ and POST
        // /todo (a POST without a body pattern is a rule). Without compaction the index would hold a
        // position for every exact mapping ever created (over a thousand here).
        #expect(engine.index.trackCount == 3)
        #expect(engine.index.positionCount <= 3 + WireMockStubs.compactionFloor, "positions held: \(engine.index.positionCount)")
        #expect(engine.rules.count == 2)

        #expect(try await TestClient.send(base + "/stays").text == "stays")
        #expect(try await TestClient.send(base + "/rule/5").text == "rule")
        #expect(try await TestClient.send(base + "/gone/0").status == 404)
        #expect(try await TestClient.send(base + "/todo").text == "one item", "the scenario kept its state")
        #expect(try await TestClient.send(base + "/shadow").text == "newer")
        #expect(try await TestClient.send(base + "/__admin/mappings/\(newer)", method: "DELETE").status == 200)
        #expect(try await TestClient.send(base + "/shadow").text == "older", "the shadowed mapping answers again")
        let listed = try JSONSerialization.jsonObject(with: Data(try await TestClient.send(base + "/__admin/mappings").body)) as? [String: Any]
        #expect((listed?["meta"] as? [String: Any])?["total"] as? Int == 5)
        try await server.stop()
    }
}
