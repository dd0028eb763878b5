import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// The admin API's answers, pinned field by field against WireMock's documented shapes (its Java client
/// refuses unknown fields, its Python client accepts only 200, 201 and 204).
@Suite("WireMock admin API")
struct WireMockAdminTests {
    private static func json(_ response: ClientResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
    }

    private static func object(_ response: ClientResponse) throws -> [String: Any] {
        try #require(try json(response) as? [String: Any], "not a JSON object: \(response.text)")
    }

    private static func start(root: URL? = nil) async throws -> TonearmServer {
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root
        return try await TonearmServer.start(configuration)
    }

    private static func post(_ server: TonearmServer, _ path: String, _ body: String, method: String = "POST") async throws -> ClientResponse {
        try await TestClient.send(
            server.baseURL.absoluteString + path, method: method, headers: [("Content-Type", "application/json")], body: body)
    }

    @Test("POST mappings answers 201 with the mapping echoed and an id; GET, PUT and DELETE address it by id")
    func mappingLifecycle() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let created = try await Self.post(server, "/__admin/mappings", #"{"request":{"method":"GET","url":"/a"},"response":{"status":200,"body":"one"}}"#)
        #expect(created.status == 201)
        #expect(created.headers.first(named: "Content-Type") == "application/json")
        let echo = try Self.object(created)
        #expect(jsonShape(echo) == ["id": "string", "uuid": "string", "request": "object", "response": "object"])
        let id = try #require(echo["id"] as? String)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(jsonShape(echo["request"]) == ["method": "string", "url": "string"])

        let fetched = try await TestClient.send(base + "/__admin/mappings/\(id)")
        #expect(fetched.status == 200)
        #expect(try Self.object(fetched)["id"] as? String == id)
        let replaced = try await Self.post(
            server, "/__admin/mappings/\(id)", #"{"request":{"method":"GET","url":"/a"},"response":{"status":202}}"#, method: "PUT")
        #expect(replaced.status == 200)
        #expect(try Self.object(replaced)["id"] as? String == id)
        #expect(try await TestClient.send(base + "/a").status == 202)
        #expect(try await TestClient.send(base + "/__admin/mappings/\(id)", method: "DELETE").status == 200)
        #expect(try await TestClient.send(base + "/__admin/mappings/\(id)").status == 404)
        #expect(try await TestClient.send(base + "/__admin/mappings/\(id)", method: "DELETE").status == 404)
        #expect(try await Self.post(server, "/__admin/mappings/\(id)", #"{"request":{"url":"/a"},"response":{}}"#, method: "PUT").status == 404)
        #expect(try await TestClient.send(base + "/a").status == 404)
        try await server.stop()
    }

    @Test("mappings sent without an id get distinct random (version 4) lowercase UUIDs, as WireMock gives them")
    func freshIDs() async throws {
        let server = try await Self.start()
        var ids = Set<String>()
        for index in 0..<64 {
            let created = try await Self.post(server, "/__admin/mappings", #"{"request":{"url":"/n/\#(index)"},"response":{"status":200}}"#)
            let id = try #require(try Self.object(created)["id"] as? String)
            let parsed = try #require(UUID(uuidString: id), "\(id) is not a UUID")
            #expect(id == parsed.uuidString.lowercased())
            let characters = Array(id)
            #expect(characters[14] == "4", "version 4: \(id)")
            #expect("89ab".contains(characters[19]), "RFC 4122 variant: \(id)")
            ids.insert(id)
        }
        #expect(ids.count == 64)
        try await server.stop()
    }

    @Test("GET mappings lists newest first as {mappings, meta: {total}}, with limit and offset; GET /__admin is the same")
    func listing() async throws {
        let server = try await Self.start()
        for path in ["/one", "/two", "/three"] {
            _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"method":"GET","url":"\#(path)"},"response":{"status":200}}"#)
        }
        let page = try Self.object(try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings?limit=2&offset=1"))
        #expect(jsonShape(page) == ["mappings": "array", "meta": "object"])
        #expect(jsonShape(page["meta"]) == ["total": "number"])
        #expect((page["meta"] as? [String: Any])?["total"] as? Int == 3)
        let urls = (page["mappings"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        #expect(urls == ["/two", "/one"])
        let root = try Self.object(try await TestClient.send(server.baseURL.absoluteString + "/__admin"))
        #expect((root["mappings"] as? [Any])?.count == 3)
        try await server.stop()
    }

    @Test("Refusals use WireMock's errors document, point where WireMock points, name the precise member in the detail, and the server keeps serving")
    func refusals() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        // The body, WireMock's pointer (the matcher or pattern Jackson was reading), and what the detail
        // names (the precise member, when the pointer is less precise): WireMock's clients read the
        // first, a person the second.
        let cases: [(String, String, String)] = [
            (#"{"request":{"url":"/t"},"response":{"body":"x","transformers":["some-extension"]}}"#, "/response/transformers/0", "some-extension"),
            (#"{"request":{"url":"/t"},"response":{"body":"{{#if x}}","transformers":["response-template"]}}"#, "/response/body", "/response/body"),
            (#"{"request":{"url":"/c","cookies":{"a":{"matchesJsonPath":"$.a"}}},"response":{}}"#, "/request/cookies/a", "/request/cookies/a/matchesJsonPath"),
            // A JSON Schema keyword Tonearm does not evaluate: named, with its place in the schema.
            (#"{"request":{"url":"/c","cookies":{"a":{"matchesJsonSchema":"{\"unevaluatedProperties\":false}"}}},"response":{}}"#, "/request/cookies/a", "unevaluatedProperties"),
            (##"{"request":{"urlPath":"/x","bodyPatterns":[{"matchesJsonSchema":{"properties":{"a":{"$dynamicRef":"#x"}}}}]},"response":{}}"##, "/request/bodyPatterns/0", "/properties/a/$dynamicRef"),
            (#"{"request":{"urlPath":"/x","headers":{"A":{"matchesJsonPath":"$.a"}}},"response":{}}"#, "/request/headers/A", "/request/headers/A/matchesJsonPath"),
            (#"{"request":{"url":"/x"},"response":{},"postServeActions":{}}"#, "/postServeActions", "postServeActions"),
            (#"{"request":{"urlPattern":"^/(?=(a+)+$)"},"response":{}}"#, "/request", "$.request.urlPattern"),
            (#"{"request":{"urlPath":"/x","headers":{"A":{"before":"now","actualFormat":"dd/QQ/yyyy"}}},"response":{}}"#, "/request/headers/A", "$.request.headers.A.actualFormat"),
            (#"{"request":{"urlPath":"/x","bodyPatterns":[{"matchesJsonPath":"$.a.length()"}]},"response":{}}"#, "/request/bodyPatterns/0", "$.request.bodyPatterns[0].matchesJsonPath"),
            (#"{"request":{"url":"/q","queryParameters":{"q":{"and":[{"equalTo":5},{"contains":"x"}]}}}}"#, "/request/queryParameters/q/0", "$.request.queryParameters.q.and[0].equalTo"),
            (#"[1]"#, "/", "expected a stub mapping object"),
        ]
        for (body, pointer, member) in cases {
            let answer = try await Self.post(server, "/__admin/mappings", body)
            #expect(answer.status == 422, "\(body): \(answer.status) \(answer.text)")
            let document = try Self.object(answer)
            #expect(jsonShape(document) == ["errors": "array"])
            let error = try #require((document["errors"] as? [[String: Any]])?.first)
            #expect(jsonShape(error) == ["code": "number", "source": "object", "title": "string", "detail": "string"])
            #expect((error["source"] as? [String: Any])?["pointer"] as? String == pointer, "\(body): \(error)")
            #expect((error["detail"] as? String)?.contains(member) == true, "\(body): \(error)")
        }
        // A body that is not JSON: WireMock's title and no source, as the jar answers.
        let unparsed = try Self.object(try await Self.post(server, "/__admin/mappings", #"{"request":"#))
        let unparsedError = try #require((unparsed["errors"] as? [[String: Any]])?.first)
        #expect(unparsedError["title"] as? String == "Error parsing JSON" && unparsedError["source"] == nil)
        let badID = try await TestClient.send(base + "/__admin/mappings/not-a-uuid")
        #expect(badID.status == 400)
        #expect(jsonShape(try Self.object(badID)) == ["errors": "array"])
        #expect(try Self.object(try await TestClient.send(base + "/__admin/mappings"))["meta"] as? [String: Int] == ["total": 0])
        let unknown = try await TestClient.send(base + "/__admin/recordings/pause")
        #expect(unknown.status == 404 && unknown.text.contains("Coming from WireMock"))
        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"url":"/still"},"response":{"status":200}}"#)
        #expect(try await TestClient.send(base + "/still").status == 200)
        try await server.stop()
    }

    @Test("The newest mapping for a request answers, the older one again once it is removed; priority then newest among rules")
    func order() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let old = try Self.object(try await Self.post(server, "/__admin/mappings", #"{"request":{"method":"GET","url":"/same"},"response":{"status":200,"body":"old"}}"#))
        let new = try Self.object(try await Self.post(server, "/__admin/mappings", #"{"request":{"method":"GET","url":"/same"},"response":{"status":200,"body":"new"}}"#))
        #expect(try await TestClient.send(base + "/same").text == "new")
        _ = try await TestClient.send(base + "/__admin/mappings/\(try #require(new["id"] as? String))", method: "DELETE")
        #expect(try await TestClient.send(base + "/same").text == "old")
        _ = try await TestClient.send(base + "/__admin/mappings/\(try #require(old["id"] as? String))", method: "DELETE")
        #expect(try await TestClient.send(base + "/same").status == 404)

        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"urlPathPattern":"/r/.*"},"response":{"body":"first"}}"#)
        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"urlPathPattern":"/r/.*"},"response":{"body":"second"}}"#)
        #expect(try await TestClient.send(base + "/r/1").text == "second")
        _ = try await Self.post(server, "/__admin/mappings", #"{"priority":1,"request":{"urlPathPattern":"/r/1"},"response":{"body":"urgent"}}"#)
        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"urlPathPattern":"/r/.*"},"response":{"body":"third"}}"#)
        #expect(try await TestClient.send(base + "/r/1").text == "urgent")
        #expect(try await TestClient.send(base + "/r/2").text == "third")
        let extreme = try await Self.post(server, "/__admin/mappings", #"{"priority":-9223372036854775808,"request":{"urlPathPattern":"/r/2"},"response":{"body":"extreme"}}"#)
        #expect(extreme.status == 201)
        #expect(try await TestClient.send(base + "/r/2").text == "extreme")
        try await server.stop()
    }

    @Test("The journal as ServeEvents and LoggedRequests, with exactly WireMock's fields")
    func journalShapes() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let mapping = try Self.object(try await Self.post(
            server, "/__admin/mappings", #"{"request":{"method":"POST","url":"/orders","bodyPatterns":[{"equalToJson":{"id":1}}]},"response":{"status":201,"headers":{"Location":"/orders/1"}}}"#))
        let hit = try await TestClient.send(base + "/orders", method: "POST", headers: [("Content-Type", "application/json")], body: #"{"id": 1}"#)
        #expect(hit.status == 201)
        let miss = try await TestClient.send(base + "/orders", method: "POST", headers: [("Content-Type", "application/json")], body: #"{"id": 2}"#)
        #expect(miss.status == 404)

        let list = try Self.object(try await TestClient.send(base + "/__admin/requests"))
        #expect(jsonShape(list) == ["requests": "array", "meta": "object", "requestJournalDisabled": "boolean"])
        let events = try #require(list["requests"] as? [[String: Any]])
        #expect(events.count == 2)
        let matched = events[1], unmatched = events[0]
        #expect(jsonShape(matched) == [
            "id": "string", "request": "object", "stubMapping": "object", "responseDefinition": "object", "response": "object",
            "wasMatched": "boolean", "timing": "object",
        ])
        #expect((matched["stubMapping"] as? [String: Any])?["id"] as? String == mapping["id"] as? String)
        #expect(matched["wasMatched"] as? Bool == true && unmatched["wasMatched"] as? Bool == false)
        #expect(jsonShape(matched["request"]) == [
            "url": "string", "absoluteUrl": "string", "method": "string", "scheme": "string", "host": "string", "port": "number",
            "headers": "object", "cookies": "object", "queryParams": "object", "formParams": "object", "clientIp": "string", "protocol": "string",
            "browserProxyRequest": "boolean", "loggedDate": "number", "loggedDateString": "string", "bodyAsBase64": "string",
            "body": "string",
        ])
        // loggedDateString is loggedDate (milliseconds) in ISO 8601, UTC, to the second: 2026-11-22T18:42:16Z.
        let logged = try #require(matched["request"] as? [String: Any])
        let loggedText = try #require(logged["loggedDateString"] as? String)
        let loggedDate = try #require(ISO8601DateFormatter().date(from: loggedText), "not ISO 8601: \(loggedText)")
        #expect(loggedText.hasSuffix("Z") && loggedText.count == 20)
        #expect(Int(loggedDate.timeIntervalSince1970) == (logged["loggedDate"] as? Int).map { $0 / 1000 })
        #expect(jsonShape(matched["response"]) == ["status": "number", "headers": "object", "bodyAsBase64": "string", "body": "string"])
        // A miss says so as WireMock's Java client reads it, and its body survives as base64.
        let missed = try #require(unmatched["responseDefinition"] as? [String: Any])
        #expect(missed["fromConfiguredStub"] as? Bool == false)
        let missBody = try #require((unmatched["response"] as? [String: Any])?["bodyAsBase64"] as? String)
        #expect(Data(base64Encoded: missBody).map { String(decoding: $0, as: UTF8.self) } == (unmatched["response"] as? [String: Any])?["body"] as? String)
        #expect(jsonShape(matched["timing"]) == [
            "addedDelay": "number", "processTime": "number", "responseSendTime": "number", "serveTime": "number", "totalTime": "number",
        ])
        let limited = try Self.object(try await TestClient.send(base + "/__admin/requests?limit=1"))
        #expect((limited["requests"] as? [Any])?.count == 1)
        #expect((limited["meta"] as? [String: Int]) == ["total": 2])
        let onlyUnmatched = try Self.object(try await TestClient.send(base + "/__admin/requests?unmatched=true"))
        #expect((onlyUnmatched["requests"] as? [[String: Any]])?.map { $0["wasMatched"] as? Bool } == [false])
        let id = try #require(matched["id"] as? String)
        let one = try Self.object(try await TestClient.send(base + "/__admin/requests/\(id)"))
        #expect(one["id"] as? String == id)
        #expect(try await TestClient.send(base + "/__admin/requests/\(UUID().uuidString)").status == 404)

        let count = try Self.object(try await Self.post(server, "/__admin/requests/count", #"{"method":"POST","urlPath":"/orders"}"#))
        #expect(jsonShape(count) == ["count": "number", "requestJournalDisabled": "boolean"])
        #expect(count["count"] as? Int == 2)
        let find = try Self.object(try await Self.post(server, "/__admin/requests/find", #"{"method":"ANY"}"#))
        #expect(jsonShape(find) == ["requests": "array", "requestJournalDisabled": "boolean"])
        #expect((find["requests"] as? [Any])?.count == 2)
        let unmatchedList = try Self.object(try await TestClient.send(base + "/__admin/requests/unmatched"))
        #expect((unmatchedList["requests"] as? [[String: Any]])?.first?["body"] as? String == #"{"id": 2}"#)

        let near = try Self.object(try await TestClient.send(base + "/__admin/requests/unmatched/near-misses"))
        #expect(jsonShape(near) == ["nearMisses": "array"])
        let first = try #require((near["nearMisses"] as? [[String: Any]])?.first)
        #expect(jsonShape(first) == ["request": "object", "stubMapping": "object", "matchResult": "object"])
        let distance = try #require((first["matchResult"] as? [String: Any])?["distance"] as? Double)
        #expect(distance > 0 && distance < 1)

        let byPattern = try Self.object(try await Self.post(
            server, "/__admin/near-misses/request-pattern", #"{"method":"POST","url":"/orders","bodyPatterns":[{"equalToJson":{"id":3}}]}"#))
        let patternMiss = try #require((byPattern["nearMisses"] as? [[String: Any]])?.first)
        #expect(jsonShape(patternMiss) == ["request": "object", "requestPattern": "object", "matchResult": "object"])

        #expect(try await TestClient.send(base + "/__admin/requests", method: "DELETE").status == 200)
        #expect(try Self.object(try await TestClient.send(base + "/__admin/requests"))["meta"] as? [String: Int] == ["total": 0])
        try await server.stop()
    }

    @Test("POST near-misses/request names the mapping that would answer (distance 0) or the closest ones, and moves no scenario")
    func nearMissesForARequest() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        func create(_ mapping: String) async throws -> String {
            let created = try await Self.post(server, "/__admin/mappings", mapping)
            #expect(created.status == 201)
            return try #require(try Self.object(created)["id"] as? String)
        }
        func nearMisses(_ method: String, _ url: String) async throws -> [(id: String?, distance: Double?)] {
            let answer = try Self.object(try await Self.post(server, "/__admin/near-misses/request", #"{"method":"\#(method)","url":"\#(url)"}"#))
            return (answer["nearMisses"] as? [[String: Any]] ?? []).map { near in
                ((near["stubMapping"] as? [String: Any])?["id"] as? String, (near["matchResult"] as? [String: Any])?["distance"] as? Double)
            }
        }
        let older = try await create(#"{"request":{"method":"GET","url":"/orders/1"},"response":{"body":"older"}}"#)
        let order = try await create(#"{"request":{"method":"GET","url":"/orders/1"},"response":{"body":"newer"}}"#)
        let users = try await create(#"{"request":{"method":"GET","urlPathPattern":"/users/[0-9]+"},"response":{"body":"user"}}"#)
        let todo = try await create(
            #"{"scenarioName":"todo","requiredScenarioState":"Started","newScenarioState":"added","request":{"method":"POST","url":"/todo"},"response":{"status":201}}"#)

        #expect(try await nearMisses("GET", "/orders/1").map(\.id) == [order], "the newest of two mappings for one request answers")
        #expect(try await nearMisses("GET", "/orders/1").map(\.distance) == [0])
        #expect(try await nearMisses("GET", "/users/7").map(\.id) == [users])
        #expect(try await nearMisses("POST", "/todo").map(\.id) == [todo])
        let state = try Self.object(try await TestClient.send(base + "/__admin/scenarios"))["scenarios"] as? [[String: Any]]
        #expect(state?.first?["state"] as? String == "Started", "asking moved no scenario")
        #expect(try await TestClient.send(base + "/todo", method: "POST").status == 201, "and the scenario still answers in Started")

        let closest = try await nearMisses("GET", "/orders/2")
        #expect(closest.first?.id == order)
        #expect(closest.allSatisfy { ($0.distance ?? 0) > 0 && ($0.distance ?? 1) < 1 })
        #expect(try await TestClient.send(base + "/__admin/mappings/\(order)", method: "DELETE").status == 200)
        #expect(try await nearMisses("GET", "/orders/1").map(\.id) == [older], "the older mapping answers again once the newer is removed")
        #expect(try await TestClient.send(base + "/__admin/mappings/\(older)", method: "DELETE").status == 200)
        #expect(try await nearMisses("GET", "/orders/1").allSatisfy { $0.id != older && $0.id != order }, "removed mappings are never named")
        try await server.stop()
    }

    @Test("Settings, health and scenarios answer in WireMock's shapes; a fixed delay holds every mapping's answer")
    func settingsAndHealth() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let health = try Self.object(try await TestClient.send(base + "/__admin/health"))
        #expect(jsonShape(health) == ["status": "string", "message": "string", "version": "string", "uptimeInSeconds": "number", "timestamp": "string"])
        let echoed = try Self.object(try await Self.post(server, "/__admin/settings", #"{"fixedDelay":300}"#))
        #expect(echoed as? [String: Int] == ["fixedDelay": 300])
        let settings = try Self.object(try await TestClient.send(base + "/__admin/settings"))
        #expect((settings["settings"] as? [String: Int]) == ["fixedDelay": 300])
        #expect(try await Self.post(server, "/__admin/settings", #"{"delayDistribution":{"type":"uniform"}}"#).status == 422)
        // A random delay and extension settings are kept and listed as sent; a POST replaces them all.
        #expect(try await Self.post(server, "/__admin/settings", #"{"delayDistribution":{"type":"uniform","lower":1,"upper":2},"extended":{"x":[1]}}"#).status == 200)
        let replaced = try Self.object(try await TestClient.send(base + "/__admin/settings"))["settings"] as? [String: Any]
        #expect((replaced?["delayDistribution"] as? [String: Any])?["upper"] as? Int == 2)
        #expect((replaced?["extended"] as? [String: [Int]]) == ["x": [1]])
        #expect(replaced?["fixedDelay"] == nil)
        _ = try await Self.post(server, "/__admin/settings", #"{"fixedDelay":300}"#)
        // A body that is not JSON is refused naming the method it came with.
        let badPut = try await TestClient.send(base + "/__admin/settings", method: "PUT", headers: [("Content-Type", "application/json")], body: "nope")
        #expect(badPut.status == 422)
        #expect(badPut.text.contains("PUT /__admin/settings"), "\(badPut.text)")
        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"url":"/slow"},"response":{"status":200}}"#)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await TestClient.send(base + "/slow").status == 200)
        #expect(clock.now - started >= .milliseconds(300))
        let listedScenarios = try Self.object(try await TestClient.send(base + "/__admin/scenarios"))
        #expect(jsonShape(listedScenarios) == ["scenarios": "array"])
        #expect(try await TestClient.send(base + "/__admin/scenarios/reset", method: "POST").status == 200)
        try await server.stop()
    }

    @Test("Scenarios: mappings answer in their required state and move it; listed, set and reset through the API")
    func scenarios() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        for mapping in [
            #"{"scenarioName":"todo","requiredScenarioState":"Started","request":{"method":"GET","url":"/todo"},"response":{"body":"empty"}}"#,
            #"{"scenarioName":"todo","requiredScenarioState":"Started","newScenarioState":"added","request":{"method":"POST","url":"/todo"},"response":{"status":201}}"#,
            #"{"scenarioName":"todo","requiredScenarioState":"added","request":{"method":"GET","url":"/todo"},"response":{"body":"one item"}}"#,
            #"{"scenarioName":"todo","requiredScenarioState":"added","request":{"urlPathPattern":"/todo/[0-9]+"},"response":{"body":"item"}}"#,
        ] {
            #expect(try await Self.post(server, "/__admin/mappings", mapping).status == 201)
        }
        #expect(try await TestClient.send(base + "/todo").text == "empty")
        #expect(try await TestClient.send(base + "/todo/1").status == 404)
        #expect(try await TestClient.send(base + "/todo", method: "POST").status == 201)
        #expect(try await TestClient.send(base + "/todo").text == "one item")
        #expect(try await TestClient.send(base + "/todo/1").text == "item")

        let listed = try Self.object(try await TestClient.send(base + "/__admin/scenarios"))
        let scenario = try #require((listed["scenarios"] as? [[String: Any]])?.first)
        #expect(jsonShape(scenario) == ["id": "string", "name": "string", "state": "string", "possibleStates": "array", "mappings": "array"])
        #expect(scenario["state"] as? String == "added")
        #expect(Set(scenario["possibleStates"] as? [String] ?? []) == ["Started", "added"])
        #expect((scenario["mappings"] as? [Any])?.count == 4)

        #expect(try await Self.post(server, "/__admin/scenarios/todo/state", #"{"state":"Started"}"#, method: "PUT").status == 200)
        #expect(try await TestClient.send(base + "/todo").text == "empty")
        #expect(try await Self.post(server, "/__admin/scenarios/nothing/state", #"{"state":"Started"}"#, method: "PUT").status == 404)
        #expect(try await Self.post(server, "/__admin/scenarios/todo/state", #"{"state":"never"}"#, method: "PUT").status == 422)
        _ = try await TestClient.send(base + "/todo", method: "POST")
        #expect(try await TestClient.send(base + "/__admin/scenarios/reset", method: "POST").status == 200)
        #expect(try await TestClient.send(base + "/todo").text == "empty")
        _ = try await TestClient.send(base + "/todo", method: "POST")
        #expect(try await TestClient.send(base + "/__admin/reset", method: "POST").status == 200)
        #expect(try Self.object(try await TestClient.send(base + "/__admin/scenarios"))["scenarios"] as? [Any] != nil)
        #expect(try await TestClient.send(base + "/todo").status == 404, "reset removed the API mappings")
        try await server.stop()
    }

    @Test("Mappings answer ahead of host-in-path routing; what they miss still reaches the cassette and hosts")
    func routing() async throws {
        let server = try await TonearmServer.start(quietConfiguration(hosts: ["api.example.com"]))
        let base = server.baseURL.absoluteString
        _ = try await Self.post(server, "/__admin/mappings", #"{"request":{"urlPathPattern":"/api.example.com/v1/.*"},"response":{"status":299}}"#)
        #expect(try await TestClient.send(base + "/api.example.com/v1/x").status == 299)
        #expect(try await TestClient.send(base + "/__tonearm/health").status == 200)
        try await server.stop()
    }

    @Test("A root directory's mappings load at start; a body file outside __files is refused")
    func rootDirectory() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(#"{"mappings":[{"request":{"url":"/a"},"response":{"body":"a"}},{"request":{"urlPath":"/b"},"response":{"body":"b"}}]}"#.utf8)
            .write(to: mappings.appendingPathComponent("two.json"))
        let server = try await Self.start(root: root)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/a").text == "a")
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/b").text == "b")
        let escape = try await Self.post(server, "/__admin/mappings", #"{"request":{"url":"/p"},"response":{"bodyFileName":"../../etc/passwd"}}"#)
        #expect(escape.status == 422, "\(escape.text)")
        #expect(escape.text.contains("/response/bodyFileName") && escape.text.contains("inside the __files folder"))
        try await server.stop()

        try Data(#"{"request":{"url":"/c","cookies":{"a":{"matchesJsonPath":"$.a"}}},"response":{}}"#.utf8).write(to: mappings.appendingPathComponent("bad.json"))
        await #expect(throws: ServerError.self) { _ = try await Self.start(root: root) }
    }
}
