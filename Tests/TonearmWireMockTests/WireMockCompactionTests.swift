import Foundation
import PropertyBased
import Testing
import Tonearm
@testable import TonearmServer
import TonearmServerTestSupport
@testable import TonearmWireMock

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
        let cycles = 2 * WireMockStubs.defaultCompactionFloor + 200
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

        let engine = try #require(server.core.wireMock).engine
        // Live tracks: GET /stays, GET /shadow (the newer) and GET /todo; rules: /rule/[0-9]+ and POST
        // /todo (a POST without a body pattern is a rule). Without compaction the index would hold a
        // position for every exact mapping ever created (over a thousand here).
        #expect(engine.index.trackCount == 3)
        #expect(engine.index.positionCount <= 3 + WireMockStubs.defaultCompactionFloor, "positions held: \(engine.index.positionCount)")
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

    @Test("whatever the adds, replacements and removals, the mapping WireMock would pick answers, across compactions")
    func orderSurvivesCompaction() async {
        let urls = ["/a", "/b", "/c"]
        // urlPathPattern matches the whole path: "/[ab]" answers /a and /b, "/.*" all three, "/c" only /c.
        let patterns = ["/[ab]", "/.*", "/c"]
        let answersFor: [[String]] = [["/a", "/b"], urls, ["/c"]]
        let priorities: [Int?] = [nil, 1, 9]
        // One operation: what (add exact, add pattern, remove, replace), which URL or pattern, which
        // priority, which existing mapping.
        let operation = zip(Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...99))
        await propertyCheck(count: 60, input: operation.array(of: 1...60)) { operations in
            guard let stubs = try? WireMockStubs(rootDirectory: nil, compactionFloor: 2) else {
                Issue.record("an empty store starts")
                return
            }
            struct Live { var id: String; var sequence: Int; var answers: [String]; var exact: Bool; var priority: Int }
            var model: [Live] = []
            var insertions = 0
            func mapping(exact: Bool, _ which: Int, _ priority: Int?, id: String?) -> WireMockMapping? {
                let request = exact ? #""url":"\#(urls[which])""# : #""urlPathPattern":"\#(patterns[which])""#
                let json = #"{\#(priority.map { #""priority":\#($0),"# } ?? "")"request":{"method":"GET",\#(request)},"response":{"status":200}}"#
                return try? WireMockMapping.decode(Array(json.utf8), source: "property", id: id, reading: WireMockMappingReading())
            }
            for (what, which, priorityIndex, pick) in operations {
                let exact = what == 0 || (what == 3 && pick.isMultiple(of: 2))
                switch what {
                case 0, 1:
                    guard let new = mapping(exact: exact, which, priorities[priorityIndex], id: nil) else {
                        Issue.record("the mapping decodes")
                        return
                    }
                    do { try stubs.add(new) } catch { Issue.record("\(error)") }
                    model.append(Live(id: new.id, sequence: insertions, answers: exact ? [urls[which]] : answersFor[which], exact: exact,
                                      priority: priorities[priorityIndex] ?? Rule.defaultPriority))
                    insertions += 1
                case 2 where !model.isEmpty:
                    let victim = model.remove(at: pick % model.count)
                    #expect((try? stubs.remove(victim.id)) == true)
                case 3 where !model.isEmpty:
                    let index = pick % model.count
                    guard let new = mapping(exact: exact, which, priorities[priorityIndex], id: model[index].id) else {
                        Issue.record("the mapping decodes")
                        return
                    }
                    #expect((try? stubs.replace(new)) == true)
                    model.remove(at: index)
                    model.append(Live(id: new.id, sequence: insertions, answers: exact ? [urls[which]] : answersFor[which], exact: exact,
                                      priority: priorities[priorityIndex] ?? Rule.defaultPriority))
                    insertions += 1
                default:
                    continue
                }
                for url in urls {
                    // WireMock's pick, as docs/server.md states it: the newest exact mapping for the
                    // request; else the pattern mapping with the lowest priority, the newest among equals.
                    let candidates = model.filter { $0.answers.contains(url) }
                    let expected = candidates.filter(\.exact).max { $0.sequence < $1.sequence }
                        ?? candidates.min { ($0.priority, -$0.sequence) < ($1.priority, -$1.sequence) }
                    let answered: String? = switch stubs.engine.match(Request(method: "GET", url: url)) {
                    case .hit(let hit): stubs.mappingID(for: hit)
                    case .miss: nil
                    }
                    #expect(answered == expected?.id, "GET \(url) after \(operations)")
                }
                let index = stubs.engine.index
                #expect(index.positionCount - index.trackCount <= 2 * max(2, model.count), "removed tracks held: \(index.positionCount - index.trackCount)")
            }
        }
    }
}
