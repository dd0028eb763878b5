import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// WireMock 3's `urlPathTemplate` with `pathParameters`, through a real server and client: matching,
/// the miss report, response templates, refusals and `--root-dir` loading.
@Suite("WireMock 3 path templates")
struct WireMockPathTemplateTests {
    private static func start(root: URL? = nil) async throws -> TonearmServer {
        var configuration = quietConfiguration()
        configuration.wireMock.rootDirectory = root
        return try await TonearmServer.start(configuration)
    }

    private static func add(_ server: TonearmServer, _ mapping: String) async throws -> ClientResponse {
        try await TestClient.send(
            server.baseURL.absoluteString + "/__admin/mappings", method: "POST", headers: [("Content-Type", "application/json")], body: mapping)
    }

    @Test("a template matches its shape only, pathParameters test each value, and a query does not get in the way")
    func matchesWithParameters() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let created = try await Self.add(server, #"""
            {"request": {"method": "GET", "urlPathTemplate": "/v1/contacts/{contactId}/addresses/{addressId}",
                         "pathParameters": {"contactId": {"equalTo": "12345"}, "addressId": {"matches": "[0-9]+"}}},
             "response": {"status": 200, "body": "address"}}
            """#)
        #expect(created.status == 201, "\(created.text)")
        #expect(try await TestClient.send(base + "/v1/contacts/12345/addresses/99876").text == "address")
        #expect(try await TestClient.send(base + "/v1/contacts/12345/addresses/99876?detail=summary").status == 200)
        for missing in ["/v1/contacts/23456/addresses/99876", "/v1/contacts/12345/addresses/home", "/v1/contacts/12345/addresses",
                        "/v1/contacts/12345/addresses/99876/", "/v1/contacts//addresses/1", "/v2/contacts/12345/addresses/1"] {
            #expect(try await TestClient.send(base + missing).status == 404, "\(missing)")
        }
        let echoed = try await TestClient.send(base + "/__admin/mappings")
        #expect(echoed.text.contains(#""urlPathTemplate":"/v1/contacts/{contactId}/addresses/{addressId}""#), "\(echoed.text)")
        try await server.stop()
    }

    @Test("a miss names the unmet path parameter, its condition and the value sent")
    func missNamesThePathParameter() async throws {
        let server = try await Self.start()
        let created = try await Self.add(server, #"""
            {"request": {"method": "GET", "urlPathTemplate": "/contacts/{contactId}", "pathParameters": {"contactId": {"equalTo": "123"}}},
             "response": {"status": 200}}
            """#)
        #expect(created.status == 201, "\(created.text)")
        let miss = try await TestClient.send(server.baseURL.absoluteString + "/contacts/345")
        #expect(miss.status == 404)
        #expect(miss.text.contains("path parameter") && miss.text.contains("contactId") && miss.text.contains("345"), "\(miss.text)")
        try await server.stop()
    }

    @Test("templates read request.path.name, segments by index, a wildcard by number, and walk the segments")
    func templatesReadParameters() async throws {
        let server = try await Self.start()
        let base = server.baseURL.absoluteString
        let body = "{{request.path.contactId}}|{{request.path.1}}|{{request.path.[0]}}|{{#each request.path}}[{{this}}]{{/each}}|{{request.path}}"
        let created = try await Self.add(server, #"""
            {"request": {"method": "GET", "urlPathTemplate": "/v1/contacts/{contactId}/**"},
             "response": {"status": 200, "body": "\#(body)", "transformers": ["response-template"]}}
            """#)
        #expect(created.status == 201, "\(created.text)")
        let answer = try await TestClient.send(base + "/v1/contacts/a%20b/notes/7?x=1")
        #expect(answer.text == "a%20b|contacts|notes/7|[][v1][contacts][a%20b][notes][7]|/v1/contacts/a%20b/notes/7", "\(answer.text)")
        try await server.stop()
    }

    @Test("pathParameters without a urlPathTemplate, or naming a parameter the template lacks, are refused with their pointer")
    func refusals() async throws {
        let server = try await Self.start()
        let withoutTemplate = try await Self.add(server, #"""
            {"request": {"method": "GET", "urlPath": "/stuff", "pathParameters": {"wrong": {"contains": "things"}}}}
            """#)
        #expect(withoutTemplate.status == 422)
        #expect(withoutTemplate.text.contains("/request/pathParameters") && withoutTemplate.text.contains("urlPathTemplate"), "\(withoutTemplate.text)")
        let unknownName = try await Self.add(server, #"""
            {"request": {"method": "GET", "urlPathTemplate": "/things/{id}", "pathParameters": {"thingId": {"equalTo": "1"}}}}
            """#)
        #expect(unknownName.status == 422)
        #expect(unknownName.text.contains("/request/pathParameters/thingId") && unknownName.text.contains(#"\"id\""#), "\(unknownName.text)")
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/__admin/mappings").text.contains(#""total":0"#))
        try await server.stop()
    }

    @Test("--root-dir loads a mapping file with a path template")
    func rootDirectoryLoads() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("wm/mappings"), withIntermediateDirectories: true)
        try folder.write("wm/mappings/contacts.json", #"""
            {"request": {"method": "GET", "urlPathTemplate": "/contacts/{contactId}", "pathParameters": {"contactId": {"doesNotMatch": "0+"}}},
             "response": {"status": 200, "body": "contact {{request.path.contactId}}", "transformers": ["response-template"]}}
            """#)
        let server = try await Self.start(root: folder.file("wm"))
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/contacts/42").text == "contact 42")
        #expect(try await TestClient.send(server.baseURL.absoluteString + "/contacts/000").status == 404)
        try await server.stop()
    }
}
