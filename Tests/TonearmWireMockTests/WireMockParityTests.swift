import Foundation
import Testing
import TonearmReplay
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// Behaviour where Tonearm differed from WireMock 2.35.1 (found by scripts/wiremock-diff.py), each
/// checked through a real server and client.
@Suite("WireMock parity")
struct WireMockParityTests {
    private static func start(root: URL? = nil) async throws -> TonearmServer {
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root
        return try await TonearmServer.start(configuration)
    }

    private static func admin(_ server: TonearmServer, _ path: String, _ body: String? = nil, method: String = "POST") async throws -> ClientResponse {
        try await TestClient.send(
            server.baseURL.absoluteString + path, method: method,
            headers: body == nil ? [] : [("Content-Type", "application/json")], body: body ?? "")
    }

    private static func object(_ response: ClientResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "not a JSON object: \(response.text)")
    }

    private static func rootWithMappingsFolder() throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder()
        let mappings = folder.url.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        return (folder, mappings)
    }

    private static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("a mapping without response answers 200, and {} answers every request, echoed as WireMock fills them in")
    func mappingWithoutResponse() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let created = try await Self.admin(server, "/__admin/mappings", #"{"request":{"method":"GET","url":"/no-response"}}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect((try Self.object(created)["response"] as? [String: Int]) == ["status": 200])
        #expect(try await TestClient.send(base + "/no-response").status == 200)

        let empty = try await Self.admin(server, "/__admin/mappings", "{}")
        #expect(empty.status == 201, "\(empty.text)")
        #expect((try Self.object(empty)["request"] as? [String: String]) == ["method": "ANY"])
        #expect(try await TestClient.send(base + "/anything/at/all", method: "DELETE").status == 200)
        try await server.stop()
    }

    @Test("a mapping is echoed with its matchers as they are read: absent false as true, options nothing reads dropped, expectedOffset folded into now")
    func matchersEchoedAsRead() async throws {
        let server = try await Self.start()
        let mapping = #"""
            {"request":{"method":"POST","url":"/echo","headers":{
              "X-Absent":{"absent":false},
              "X-Regex":{"matches":"a.*","caseInsensitive":true},
              "X-Equal":{"equalTo":"a","caseInsensitive":true},
              "X-Since":{"after":"now","expectedOffset":-30,"expectedOffsetUnit":"years"},
              "X-Until":{"before":"now"},
              "X-Fixed":{"before":"2021-06-14T00:00:00Z","expectedOffset":3,"expectedOffsetUnit":"days"}},
             "bodyPatterns":[{"equalToXml":"<a x=\"1\"/>","exemptedComparisons":"ATTR_VALUE"}]},
             "response":{"status":200}}
            """#
        let created = try await Self.admin(server, "/__admin/mappings", mapping)
        #expect(created.status == 201, "\(created.text)")
        let id = try #require(try Self.object(created)["id"] as? String)
        let fetched = try await Self.admin(server, "/__admin/mappings/\(id)", method: "GET")
        for echoed in [created, fetched] {
            let request = try #require(try Self.object(echoed)["request"] as? [String: Any])
            let headers = try #require(request["headers"] as? [String: [String: Any]])
            #expect(headers["X-Absent"]?["absent"] as? Bool == true)
            #expect(headers["X-Regex"]?.keys.sorted() == ["matches"])
            #expect(headers["X-Equal"]?["caseInsensitive"] as? Bool == true)
            #expect(headers["X-Since"]?.count == 1 && headers["X-Since"]?["after"] as? String == "now -30 years")
            #expect(headers["X-Until"]?["before"] as? String == "now +0 seconds")
            #expect(headers["X-Fixed"]?.keys.sorted() == ["before"])
            let bodyPattern = try #require((request["bodyPatterns"] as? [[String: Any]])?.first)
            #expect(bodyPattern.keys.sorted() == ["equalToXml"])
        }
        try await server.stop()
    }

    @Test("beside urlPath, urlPattern is the URL matcher that counts, as in WireMock, and the only one echoed")
    func firstURLMatcherCounts() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let created = try await Self.admin(
            server, "/__admin/mappings", #"{"request":{"method":"GET","urlPath":"/q","urlPattern":"/p/.*"},"response":{"status":200}}"#)
        #expect(created.status == 201, "\(created.text)")
        let request = try #require(try Self.object(created)["request"] as? [String: String])
        #expect(request == ["method": "GET", "urlPattern": "/p/.*"])
        #expect(try await TestClient.send(base + "/p/1").status == 200)
        #expect(try await TestClient.send(base + "/q").status == 404)
        try await server.stop()
    }

    @Test("POST mappings/reset empties the journal and loads mapping files written after the start")
    func resetReloadsFilesAndClearsJournal() async throws {
        let (folder, mappings) = try Self.rootWithMappingsFolder()
        let server = try await Self.start(root: folder.url)
        let base = server.baseURL.absoluteString
        #expect(try await TestClient.send(base + "/late").status == 404)
        try Data(#"{"request":{"method":"GET","url":"/late"},"response":{"body":"late"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("late.json"))

        #expect(try await Self.admin(server, "/__admin/mappings/reset").status == 200)
        let journal = try Self.object(try await TestClient.send(base + "/__admin/requests"))
        #expect((journal["requests"] as? [Any])?.isEmpty == true)
        #expect(try await TestClient.send(base + "/late").text == "late")
        try await server.stop()
    }

    @Test("saved mappings are marked persistent, and deleting them (one, or all) deletes their files")
    func savedMappingsAndTheirFiles() async throws {
        let (folder, mappings) = try Self.rootWithMappingsFolder()
        let server = try await Self.start(root: folder.url)
        let one = "11111111-2222-3333-4444-555555555555", two = "99999999-2222-3333-4444-555555555555"
        for id in [one, two] {
            let created = try await Self.admin(server, "/__admin/mappings", #"{"id":"\#(id)","request":{"method":"GET","url":"/\#(id)"},"response":{}}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        #expect(try await Self.admin(server, "/__admin/mappings/save").status == 200)
        #expect(try Self.files(in: mappings) == ["\(one).json", "\(two).json"])
        let saved = try Self.object(try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings/\(one)"))
        #expect(saved["persistent"] as? Bool == true)

        #expect(try await Self.admin(server, "/__admin/mappings/\(one)", method: "DELETE").status == 200)
        #expect(try Self.files(in: mappings) == ["\(two).json"])
        #expect(try await Self.admin(server, "/__admin/mappings", method: "DELETE").status == 200)
        #expect(try Self.files(in: mappings) == [])

        let persistent = try await Self.admin(server, "/__admin/mappings", #"{"id":"\#(one)","persistent":true,"request":{"url":"/p"}}"#)
        #expect(persistent.status == 201)
        #expect(try Self.files(in: mappings) == ["\(one).json"])
        #expect(try await Self.admin(server, "/__admin/mappings/\(one)", method: "DELETE").status == 200)
        #expect(try Self.files(in: mappings) == [])
        try await server.stop()
    }

    @Test("A gzip request body is matched inflated; one that inflates past the body limit is 413, a corrupt one 400, and the server keeps serving")
    func gzipRequestBodies() async throws {
        var configuration = quietConfiguration()
        configuration.limits.maximumBodySize = 1024 * 1024
        let server = try await TonearmServer.start(configuration)
        let created = try await Self.admin(server, "/__admin/mappings", #"{"request":{"method":"POST","url":"/g","bodyPatterns":[{"contains":"hello"}]},"response":{"body":"hit"}}"#)
        #expect(created.status == 201)
        /// POSTs `body` to /g as gzip and returns the whole answer.
        func post(_ body: [UInt8]) async throws -> String {
            let connection = try RawConnection(port: server.port)
            connection.send("POST /g HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            connection.send(body)
            return try await connection.readUntilClosed().text
        }
        let hello = try #require(GzipEncoding.compress(Array("say hello".utf8)))
        // The stub's answer comes chunked, as WireMock sends one that sets no Content-Length.
        let hit = "\r\n3\r\nhit\r\n0\r\n\r\n"
        #expect(try await post(hello).hasSuffix(hit))
        // 8 MiB of zeros is about 8 KB compressed: under the body limit as sent, 8 times over it inflated.
        let bomb = try #require(GzipEncoding.compress([UInt8](repeating: 0, count: 8 * 1024 * 1024)))
        #expect(bomb.count < 64 * 1024)
        #expect(try await post(bomb).hasPrefix("HTTP/1.1 413"))
        #expect(try await post(Array(hello.prefix(hello.count / 2))).hasPrefix("HTTP/1.1 400"))
        #expect(try await post(hello).hasSuffix(hit), "still serving")
        try await server.stop()
    }

    @Test("GET requests answers 400 to a since that is not a date and a matchingStub that is not a UUID", arguments: [
        "since=not-a-date", "matchingStub=not-a-uuid", "matchingStub=",
    ])
    func journalParametersAreChecked(query: String) async throws {
        let server = try await Self.start()
        let answer = try await TestClient.send(server.baseURL.absoluteString + "/__admin/requests?\(query)")
        #expect(answer.status == 400, "\(answer.text)")
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/__admin/requests?since=2000-01-01T00:00:00Z").status == 200)
        try await server.stop()
    }

    @Test("GET requests: since and limit page through the journal, and meta.total still counts every event, as WireMock's does")
    func journalTotalCountsBeforePaging() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        _ = try await TestClient.send(base + "/one")
        _ = try await TestClient.send(base + "/two")
        let future = try await TestClient.send(base + "/__admin/requests?since=2999-01-01T00:00:00Z")
        #expect((try Self.object(future)["requests"] as? [Any])?.isEmpty == true)
        #expect((try Self.object(future)["meta"] as? [String: Int]) == ["total": 2])
        let limited = try await TestClient.send(base + "/__admin/requests?limit=1")
        #expect((try Self.object(limited)["requests"] as? [Any])?.count == 1)
        #expect((try Self.object(limited)["meta"] as? [String: Int]) == ["total": 2])
        try await server.stop()
    }

    @Test("url is an exact match of path and query for every method", arguments: ["GET", "POST", "PUT", "DELETE"])
    func urlIsExact(method: String) async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        for url in ["/r", "/t?a=1&b=2"] {
            let created = try await Self.admin(server, "/__admin/mappings", #"{"request":{"method":"\#(method)","url":"\#(url)"},"response":{"body":"hit"}}"#)
            #expect(created.status == 201, "\(created.text)")
        }
        #expect(try await TestClient.send(base + "/r", method: method).status == 200)
        #expect(try await TestClient.send(base + "/r?z=1", method: method).status == 404)
        #expect(try await TestClient.send(base + "/t?a=1&b=2", method: method).status == 200)
        #expect(try await TestClient.send(base + "/t?b=2&a=1", method: method).status == 200)
        #expect(try await TestClient.send(base + "/t?a=1", method: method).status == 404)
        #expect(try await TestClient.send(base + "/t?a=1&b=2&c=3", method: method).status == 404)
        try await server.stop()
    }

    @Test("a repeated request header matches when any of its values does")
    func repeatedHeader() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let created = try await Self.admin(
            server, "/__admin/mappings", #"{"request":{"method":"GET","url":"/h","headers":{"X-Thing":{"equalTo":"Two"}}},"response":{"body":"two"}}"#)
        #expect(created.status == 201)
        let three = try await TestClient.send(base + "/h", headers: [("X-Thing", "One"), ("X-Thing", "Two"), ("X-Thing", "Three")])
        #expect(three.text == "two")
        #expect(try await TestClient.send(base + "/h", headers: [("X-Thing", "One"), ("X-Thing", "Three")]).status == 404)
        try await server.stop()
    }

    @Test("serve events carry WireMock's LoggedRequest fields: scheme, host, port, clientIp, cookies, queryParams and (3.x) formParams")
    func loggedRequestFields() async throws {
        let server = try await Self.start()
        _ = try await TestClient.send(
            server.baseURL.absoluteString + "/c?a=1&a=2", method: "POST",
            headers: [("Cookie", "session=s1; theme=dark"), ("Content-Type", "application/x-www-form-urlencoded")], body: "f=1&g=two+words&f=3")
        let found = try Self.object(try await Self.admin(server, "/__admin/requests/find", #"{"method":"ANY"}"#))
        let logged = try #require((found["requests"] as? [[String: Any]])?.first)
        #expect(logged["cookies"] as? [String: String] == ["session": "s1", "theme": "dark"])
        let query = try #require(logged["queryParams"] as? [String: [String: Any]])
        #expect(query["a"]?["values"] as? [String] == ["1", "2"])
        let form = try #require(logged["formParams"] as? [String: [String: Any]])
        #expect(form["f"]?["values"] as? [String] == ["1", "3"] && form["g"]?["values"] as? [String] == ["two words"])
        #expect(logged["scheme"] as? String == "http" && logged["host"] as? String == "127.0.0.1")
        #expect(logged["port"] as? Int == server.port)
        #expect(logged["clientIp"] as? String == "127.0.0.1")
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("PUT scenarios/{name}/state with an empty body puts the scenario back in Started; an unknown one is 404")
    func scenarioResetByEmptyBody() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        for (body, required, next) in [("one", "Started", "Two"), ("two", "Two", "Two")] {
            let created = try await Self.admin(server, "/__admin/mappings", #"""
                {"scenarioName":"S","requiredScenarioState":"\#(required)","newScenarioState":"\#(next)","request":{"method":"GET","url":"/sc"},"response":{"body":"\#(body)"}}
                """#)
            #expect(created.status == 201, "\(created.text)")
        }
        #expect(try await TestClient.send(base + "/sc").text == "one")
        #expect(try await TestClient.send(base + "/sc").text == "two")
        let reset = try await TestClient.send(base + "/__admin/scenarios/S/state", method: "PUT")
        #expect(reset.status == 200, "\(reset.text)")
        #expect(try await TestClient.send(base + "/sc").text == "one")
        #expect(try await TestClient.send(base + "/__admin/scenarios/Nope/state", method: "PUT").status == 404)
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("An admin body is read in the charset its Content-Type names; one Foundation cannot decode is a 415 naming it")
    func adminCharsets() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        /// POSTs `mapping` encoded in `encoding`, its Content-Type naming `charset`; the whole answer.
        func add(_ mapping: String, charset: String, encoding: String.Encoding) async throws -> String {
            let body = Array(try #require(mapping.data(using: encoding)))
            let connection = try RawConnection(port: server.port)
            connection.send("POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json; charset=\(charset)\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
            connection.send(body)
            return try await connection.readUntilClosed().text
        }
        let latin = try await add(#"{"request":{"url":"/latin"},"response":{"body":"crème brûlée"}}"#, charset: "ISO-8859-1", encoding: .isoLatin1)
        #expect(latin.hasPrefix("HTTP/1.1 201"), "\(latin)")
        #expect(try await TestClient.send(base + "/latin").text == "crème brûlée")
        let japanese = try await add(#"{"request":{"url":"/jp"},"response":{"body":"日本語"}}"#, charset: "Shift_JIS", encoding: .shiftJIS)
        #expect(japanese.hasPrefix("HTTP/1.1 201"), "\(japanese)")
        #expect(try await TestClient.send(base + "/jp").text == "日本語")
        let unknown = try await add(#"{"request":{"url":"/zh"}}"#, charset: "GB2312", encoding: .utf8)
        #expect(unknown.hasPrefix("HTTP/1.1 415") && unknown.contains("GB2312"), "\(unknown)")
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("--root-dir loads a plugin-style folder (basicAuth, a multipart name, a mapping without response), as tonearm lint passes it")
    func pluginStyleRootLoads() async throws {
        let folder = try TemporaryFolder()
        let server = try await Self.start(root: try folder.makePluginStyleWireMockRoot())
        let base = server.baseURL.absoluteString
        #expect(try await TestClient.send(base + "/secure", headers: [("Authorization", "Basic dTpw")]).text == "ok")
        #expect(try await TestClient.send(base + "/secure").status == 404)
        #expect(try await TestClient.send(base + "/ping").status == 200)
        let upload = try await TestClient.send(
            base + "/upload", method: "POST", headers: [("Content-Type", "multipart/form-data; boundary=zz")],
            body: "--zz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nx\r\n--zz--\r\n")
        #expect(upload.status == 201)
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("Scenarios list possibleStates as WireMock does (new states, then required ones, in the order the mappings came), and setting one no mapping names is WireMock's 422")
    func scenarioPossibleStatesAndErrors() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        for mapping in [
            #"{"scenarioName":"S","requiredScenarioState":"Started","newScenarioState":"B","request":{"url":"/a"}}"#,
            #"{"scenarioName":"S","requiredScenarioState":"B","newScenarioState":"C","request":{"urlPattern":"/b.*"}}"#,
            #"{"scenarioName":"S","requiredScenarioState":"Z","request":{"url":"/c"},"response":{"body":"in Z"}}"#,
        ] {
            #expect(try await Self.admin(server, "/__admin/mappings", mapping).status == 201)
        }
        let listed = try Self.object(try await TestClient.send(base + "/__admin/scenarios"))
        let scenario = try #require((listed["scenarios"] as? [[String: Any]])?.first)
        #expect(scenario["possibleStates"] as? [String] == ["B", "C", "Started", "Z"])
        #expect((scenario["mappings"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } == ["/a", "/c"])

        let unknown = try Self.object(try await Self.admin(server, "/__admin/scenarios/Nope/state", #"{"state":"B"}"#, method: "PUT"))
        let unknownError = try #require((unknown["errors"] as? [[String: Any]])?.first)
        #expect(unknownError["title"] as? String == "Scenario Nope does not exist")
        #expect(unknownError["code"] as? Int == 404 && unknownError["source"] == nil)

        let refused = try await Self.admin(server, "/__admin/scenarios/S/state", #"{"state":"Nowhere"}"#, method: "PUT")
        #expect(refused.status == 422)
        let refusedError = try #require((try Self.object(refused)["errors"] as? [[String: Any]])?.first)
        #expect(refusedError["title"] as? String == "Scenario S does not support state Nowhere")
        #expect(refusedError["code"] as? Int == 11)
        #expect((refusedError["detail"] as? String)?.contains(#""Z""#) == true)
        // A body without a state is refused, as the jar refuses "state null"; an empty body resets.
        #expect(try await Self.admin(server, "/__admin/scenarios/S/state", "{}", method: "PUT").status == 422)
        #expect(try await Self.admin(server, "/__admin/scenarios/S/state", #"{"state":"Z"}"#, method: "PUT").status == 200)
        #expect(try await TestClient.send(base + "/c").text == "in Z")

        // Started is a state only when a mapping names it.
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"scenarioName":"T","requiredScenarioState":"X","request":{"url":"/x"}}"#).status == 201)
        #expect(try await Self.admin(server, "/__admin/scenarios/T/state", #"{"state":"Started"}"#, method: "PUT").status == 422)
        #expect(try await TestClient.send(base + "/__admin/scenarios/T/state", method: "PUT").status == 200)
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("deleting a persistent mapping loaded from its own file deletes the file, deleting all deletes every mapping's own file; a file holding several mappings stays")
    func loadedFilesGoWithTheirMappings() async throws {
        let (folder, mappings) = try Self.rootWithMappingsFolder()
        let own = "11111111-2222-3333-4444-555555555555", plain = "99999999-2222-3333-4444-555555555555"
        try Data(#"{"id":"\#(own)","persistent":true,"request":{"method":"GET","url":"/own"},"response":{"body":"own"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("own.json"))
        try Data(#"{"id":"\#(plain)","request":{"method":"GET","url":"/plain"},"response":{"body":"plain"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("plain.json"))
        try Data(#"{"mappings":[{"request":{"method":"GET","url":"/a"},"response":{}},{"request":{"method":"GET","url":"/b"},"response":{}}]}"#.utf8)
            .write(to: mappings.appendingPathComponent("shared.json"))
        let server = try await Self.start(root: folder.url)
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/own").text == "own")
        #expect(try await Self.admin(server, "/__admin/mappings/\(own)", method: "DELETE").status == 200)
        #expect(try Self.files(in: mappings) == ["plain.json", "shared.json"])
        #expect(try await Self.admin(server, "/__admin/mappings", method: "DELETE").status == 200)
        #expect(try Self.files(in: mappings) == ["shared.json"])
        try await server.stop()
    }

    @Test("PUT of a persistent mapping loaded from its own file rewrites that file (no second file), so a reset brings back the new content")
    func replacedPersistentMappingRewritesItsFile() async throws {
        let (folder, mappings) = try Self.rootWithMappingsFolder()
        let id = "11111111-2222-3333-4444-555555555555"
        try Data(#"{"id":"\#(id)","persistent":true,"request":{"method":"GET","url":"/own"},"response":{"body":"old"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("own.json"))
        let server = try await Self.start(root: folder.url)
        let base = server.baseURL.absoluteString
        let replaced = try await Self.admin(
            server, "/__admin/mappings/\(id)", #"{"persistent":true,"request":{"method":"GET","url":"/own"},"response":{"body":"new"}}"#,
            method: "PUT")
        #expect(replaced.status == 200, "\(replaced.text)")
        #expect(try await TestClient.send(base + "/own").text == "new")
        #expect(try await Self.admin(server, "/__admin/mappings/reset").status == 200)
        #expect(try await TestClient.send(base + "/own").text == "new")
        try await server.stop()
        #expect(try Self.files(in: mappings) == ["own.json"])
        #expect(try String(contentsOf: mappings.appendingPathComponent("own.json"), encoding: .utf8).contains("new"))
    }
}

extension WireMockParityTests {
    @Test("a mapping's answer names it in Matched-Stub-Id (and Matched-Stub-Name when it has a name), in the response and in the journal")
    func matchedStubID() async throws {
        let server = try await Self.start()
        let id = "11111111-2222-3333-4444-555555555555"
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"id":"\#(id)","request":{"method":"GET","urlPathPattern":"/m/.*"},"response":{"body":"m"}}"#).status == 201)
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"name":"Greeting","request":{"method":"GET","url":"/hello"},"response":{"body":"hi"}}"#).status == 201)
        let answer = try await TestClient.send(server.baseURL.absoluteString + "/m/1")
        #expect(answer.headers.first(named: "Matched-Stub-Id") == id)
        #expect(answer.headers.first(named: "Matched-Stub-Name") == nil)
        let journal = try Self.object(try await TestClient.send(server.baseURL.absoluteString + "/__admin/requests"))
        let event = try #require((journal["requests"] as? [[String: Any]])?.first)
        #expect(((event["response"] as? [String: Any])?["headers"] as? [String: Any])?["Matched-Stub-Id"] as? String == id)
        let named = try await TestClient.send(server.baseURL.absoluteString + "/hello")
        #expect(named.headers.first(named: "Matched-Stub-Name") == "Greeting")
        #expect(named.headers.first(named: "Matched-Stub-Id")?.count == 36)
        try await server.stop()
    }

    @Test("faults play on the connection as WireMock plays them", arguments: [
        ("EMPTY_RESPONSE", "", false),
        ("CONNECTION_RESET_BY_PEER", "", true),
        ("RANDOM_DATA_THEN_CLOSE", "lorem ipsum", false),
        ("MALFORMED_RESPONSE_CHUNK", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nlorem ipsum", false),
    ])
    func faults(fault: String, received: String, reset: Bool) async throws {
        let server = try await Self.start()
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request":{"url":"/f"},"response":{"fault":"\#(fault)"}}"#).status == 201)
        let port = server.port
        let (text, error) = try await blocking {
            let connection = try RawConnection(port: port)
            connection.send("GET /f HTTP/1.1\r\nHost: x\r\n\r\n")
            return connection.readRecordingError()
        }
        let journal = try Self.object(try await TestClient.send(server.baseURL.absoluteString + "/__admin/requests"))
        try await server.stop()
        #expect(received.isEmpty ? text.isEmpty : text.hasPrefix(received), "\(text.debugDescription)")
        #expect(error == (reset ? ECONNRESET : 0), "errno \(error)")
        let event = try #require((journal["requests"] as? [[String: Any]])?.first)
        #expect((event["response"] as? [String: Any])?["fault"] as? String == fault)
    }

    @Test("a stub's answer is gzipped for a client that accepts gzip, as WireMock's are; not without Accept-Encoding, nor for an image")
    func gzipAnswers() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let body = String(repeating: "tonearm ", count: 64)
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request":{"url":"/text"},"response":{"body":"\#(body)"}}"#).status == 201)
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request":{"url":"/image"},"response":{"body":"\#(body)","headers":{"Content-Type":"image/png"}}}"#).status == 201)
        let gzipped = try await TestClient.send(base + "/text", headers: [("Accept-Encoding", "gzip, deflate")])
        let plain = try await TestClient.send(base + "/text")
        let refused = try await TestClient.send(base + "/text", headers: [("Accept-Encoding", "gzip;q=0")])
        let image = try await TestClient.send(base + "/image", headers: [("Accept-Encoding", "gzip")])
        try await server.stop()
        #expect(gzipped.headers.first(named: "Content-Encoding") == "gzip")
        #expect(gzipped.headers.first(named: "Vary") == "Accept-Encoding")
        #expect(ContentDecoding.inflate(gzipped.body).map { String(decoding: $0, as: UTF8.self) } == body)
        #expect(gzipped.body.count < body.utf8.count)
        #expect(plain.headers.first(named: "Content-Encoding") == nil && plain.text == body)
        #expect(refused.headers.first(named: "Content-Encoding") == nil)
        #expect(image.headers.first(named: "Content-Encoding") == nil && image.text == body)
    }

    @Test("/__admin/files lists, writes and deletes body files under __files, as WireMock 2.x does; a name leading out of __files is refused")
    func bodyFilesEndpoint() async throws {
        let (folder, _) = try Self.rootWithMappingsFolder()
        let server = try await Self.start(root: folder.url)
        let base = server.baseURL.absoluteString
        let put = try await TestClient.send(
            base + "/__admin/files/greetings/hello.txt", method: "PUT", headers: [("Content-Type", "text/plain")], body: "hello from put")
        #expect(put.status == 200, "\(put.text)")
        #expect(put.text == #""aGVsbG8gZnJvbSBwdXQ=""#)
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"request":{"url":"/hello"},"response":{"bodyFileName":"greetings/hello.txt"}}"#).status == 201)
        #expect(try await TestClient.send(base + "/hello").text == "hello from put")
        // Listed by name in __files, as WireMock 3 lists them (with --wiremock-version 2, by absolute path).
        let listed = try await TestClient.send(base + "/__admin/files")
        let bodyFiles = folder.url.appendingPathComponent("__files").resolvingSymlinksInPath().path
        #expect(listed.text.contains(#""greetings/hello.txt""#), "\(listed.text)")
        let escape = try await TestClient.send(base + "/__admin/files/../mappings/planted.json", method: "PUT", body: "{}")
        #expect(escape.status == 400, "\(escape.status) \(escape.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("mappings/planted.json").path))
        #expect(try await TestClient.send(base + "/__admin/files/greetings/hello.txt", method: "DELETE").status == 200)
        #expect(!FileManager.default.fileExists(atPath: "\(bodyFiles)/greetings/hello.txt"))
        #expect(try await TestClient.send(base + "/__admin/files/greetings/hello.txt", method: "DELETE").status == 404)
        try await server.stop()
    }

    @Test("mappings/new, /edit, /remove, /import and /find-by-metadata, as WireMock 2.x's clients call them")
    func olderMappingEndpoints() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let id = "11111111-2222-3333-4444-555555555555"
        let created = try await Self.admin(server, "/__admin/mappings/new", #"{"id":"\#(id)","metadata":{"team":"a"},"request":{"method":"GET","url":"/n"},"response":{"body":"new"}}"#)
        #expect(created.status == 201, "\(created.text)")
        #expect(try await TestClient.send(base + "/n").text == "new")

        let edited = try await Self.admin(server, "/__admin/mappings/edit", #"{"id":"\#(id)","metadata":{"team":"a"},"request":{"method":"GET","url":"/n"},"response":{"body":"edited"}}"#)
        #expect(edited.status == 204, "\(edited.text)")
        #expect(try await TestClient.send(base + "/n").text == "edited")

        let found = try Self.object(try await Self.admin(server, "/__admin/mappings/find-by-metadata", #"{"matchesJsonPath":{"expression":"$.team","equalTo":"a"}}"#))
        #expect((found["mappings"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
        #expect((found["meta"] as? [String: Int]) == ["total": 1])

        #expect(try await Self.admin(server, "/__admin/mappings/remove", #"{"id":"\#(id)","request":{"method":"GET","url":"/n"}}"#).status == 200)
        #expect(try await TestClient.send(base + "/n").status == 404)

        let imported = try await Self.admin(server, "/__admin/mappings/import", #"""
            {"mappings":[{"request":{"method":"GET","url":"/i1"},"response":{"body":"one"}},{"request":{"method":"GET","url":"/i2"},"response":{"body":"two"}}]}
            """#)
        #expect(imported.status == 200, "\(imported.text)")
        #expect(try await TestClient.send(base + "/i1").text == "one")
        #expect(try await TestClient.send(base + "/i2").text == "two")
        let refused = try await Self.admin(server, "/__admin/mappings/import", #"{"mappings":[{"request":{"method":"GET","url":"/i3"}},{"request":{"url":5}}]}"#)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(try await TestClient.send(base + "/i3").status == 404, "a refused import adds nothing")
        try await server.stop()
    }
}

extension WireMockParityTests {
    @Test("requests/remove, requests/remove-by-metadata and DELETE requests/{id} forget part of the journal and answer the removed serve events")
    func journalRemovals() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let tagged = "11111111-2222-3333-4444-555555555555"
        #expect(try await Self.admin(server, "/__admin/mappings", #"{"id":"\#(tagged)","metadata":{"tag":"a"},"request":{"method":"GET","url":"/tagged"},"response":{}}"#).status == 201)
        for path in ["/a", "/b", "/tagged", "/c"] { _ = try await TestClient.send(base + path) }
        func urls() async throws -> [String] {
            let journal = try Self.object(try await TestClient.send(base + "/__admin/requests"))
            return (journal["requests"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } ?? []
        }

        let removed = try Self.object(try await Self.admin(server, "/__admin/requests/remove", #"{"method":"GET","url":"/a"}"#))
        #expect((removed["serveEvents"] as? [[String: Any]])?.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } == ["/a"])
        #expect(try await urls() == ["/c", "/tagged", "/b"])

        let byMetadata = try Self.object(try await Self.admin(
            server, "/__admin/requests/remove-by-metadata", #"{"matchesJsonPath":{"expression":"$.tag","equalTo":"a"}}"#))
        #expect((byMetadata["serveEvents"] as? [Any])?.count == 1)
        #expect(try await urls() == ["/c", "/b"])

        let journal = try Self.object(try await TestClient.send(base + "/__admin/requests"))
        let newest = try #require((journal["requests"] as? [[String: Any]])?.first?["id"] as? String)
        #expect(try await Self.admin(server, "/__admin/requests/\(newest)", method: "DELETE").status == 200)
        #expect(try await urls() == ["/b"])
        #expect(try await Self.admin(server, "/__admin/requests/not-a-uuid", method: "DELETE").status == 400)
        try await server.stop()
    }

    @Test("recorded-style mappings load and answer: equalToJson with ignoreArrayOrder/ignoreExtraElements, cookies, basic auth, JSONPath filters; requests/count takes the same matchers")
    func requestMatchers() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let recorded = #"{"request":{"method":"POST","url":"/orders","bodyPatterns":[{"equalToJson":{"items":[{"sku":"a"},{"sku":"b"}]},"ignoreArrayOrder":true,"ignoreExtraElements":true}]},"response":{"status":201}}"#
        #expect(try await Self.admin(server, "/__admin/mappings", recorded).status == 201)
        let guarded = #"{"request":{"method":"GET","url":"/me","cookies":{"session":{"matches":"s[0-9]+"}},"basicAuthCredentials":{"username":"u","password":"p"}},"response":{"status":200}}"#
        #expect(try await Self.admin(server, "/__admin/mappings", guarded).status == 201)
        let filtered = #"{"request":{"method":"POST","url":"/search","bodyPatterns":[{"matchesJsonPath":"$.filters[?(@.field == 'colour' && @.value =~ /r.d/)]"},{"matchesJsonPath":{"expression":"$..page","equalTo":"2"}}]},"response":{"status":200}}"#
        #expect(try await Self.admin(server, "/__admin/mappings", filtered).status == 201)

        #expect(try await TestClient.send(base + "/orders", method: "POST", body: #"{"id":7,"items":[{"sku":"b","n":1},{"sku":"a"}]}"#).status == 201)
        #expect(try await TestClient.send(base + "/orders", method: "POST", body: #"{"items":[{"sku":"b"}]}"#).status == 404)
        #expect(try await TestClient.send(base + "/me", headers: [("Cookie", "theme=dark; session=s42"), ("Authorization", "Basic dTpw")]).status == 200)
        #expect(try await TestClient.send(base + "/me", headers: [("Cookie", "session=s42")]).status == 404)
        #expect(try await TestClient.send(base + "/search", method: "POST", body: #"{"filters":[{"field":"colour","value":"red"}],"paging":{"page":2}}"#).status == 200)
        #expect(try await TestClient.send(base + "/search", method: "POST", body: #"{"filters":[{"field":"colour","value":"blue"}],"paging":{"page":2}}"#).status == 404)

        let count = try Self.object(try await Self.admin(server, "/__admin/requests/count", #"{"method":"ANY","cookies":{"session":{"absent":true}},"bodyPatterns":[{"doesNotMatch":".*blue.*"}]}"#))
        // Of the six requests, those without a session cookie whose body does not mention blue: the two
        // orders and the first search.
        #expect(count["count"] as? Int == 3)
        // A date option Tonearm cannot read is refused, naming it, rather than ignored.
        let refused = try await Self.admin(server, "/__admin/mappings", #"{"request":{"headers":{"X-When":{"before":"now","truncateExpected":"first week of month"}}},"response":{}}"#)
        #expect(refused.status == 422)
        #expect(refused.text.contains("truncateExpected"))
        try await server.stop()
    }
}
