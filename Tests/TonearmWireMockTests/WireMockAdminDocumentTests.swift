import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmWireMock
import TonearmTestSupport

/// `/__admin/docs`, `/__admin/docs/swagger` and `/__admin/swagger-ui`, where WireMock 2.35.1 answers its
/// own documents: Tonearm's OpenAPI document of its admin API, which must describe routes that exist.
@Suite("WireMock admin API: its documents")
struct WireMockAdminDocumentTests {
    @Test("The OpenAPI document is JSON, and the router answers every path and method it lists (none is Tonearm's 'does not answer' 404)")
    func everyListedRouteIsAnswered() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let answer = try await TestClient.send(base + "/__admin/docs/swagger")
        #expect(answer.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(paths.count >= 30)
        for (path, operations) in paths {
            let concrete = path
                .replacingOccurrences(of: "{id}", with: "00000000-0000-0000-0000-000000000001")
                .replacingOccurrences(of: "{name}", with: "some-name")
            for method in operations.keys {
                // Calls that would stop nothing the test needs: a body the call refuses or an id it lacks
                // is fine, an endpoint the router lacks is not.
                let sent = try await TestClient.send(base + concrete, method: method.uppercased(), body: method == "get" ? nil : "{}")
                #expect(!sent.text.contains("Tonearm does not answer"), "\(method.uppercased()) \(path): \(sent.status) \(sent.text)")
            }
        }
        try await server.stop()
    }

    @Test("/__admin/docs links to the document; /__admin/swagger-ui redirects to its folder, whose page points to the document")
    func indexAndSwaggerUI() async throws {
        let server = try await TonearmServer.start(quietConfiguration())
        let base = server.baseURL.absoluteString
        let index = try await TestClient.send(base + "/__admin/docs")
        #expect(index.status == 200 && index.text.contains(#"href="/__admin/docs/swagger""#))
        #expect(index.headers.first(named: "Content-Type")?.hasPrefix("text/html") == true)
        let redirect = try await TestClient.send(base + "/__admin/swagger-ui")
        #expect(redirect.status == 302 && redirect.headers.first(named: "Location") == "/__admin/swagger-ui/")
        let page = try await TestClient.send(base + "/__admin/swagger-ui/")
        #expect(page.status == 200 && page.text.contains("/__admin/docs/swagger"))
        try await server.stop()
    }
}
