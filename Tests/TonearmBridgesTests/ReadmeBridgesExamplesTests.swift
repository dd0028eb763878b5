import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIURLSession
import Testing
import Tonearm
import TonearmAsyncHTTPClient
import TonearmHTTPTypes
import TonearmOpenAPI
import TonearmTesting

// Every example of README's "Server-side Swift" section, verbatim, so the README cannot drift from the API.
// Change both together.

// README: "AsyncHTTPClient"
struct GreetingService {
    let http: any HTTPClientExecuting   // HTTPClient.shared in production

    func greeting(for name: String) async throws -> String {
        let request = HTTPClientRequest(url: "https://api.example.com/greetings/\(name)")
        let response = try await http.execute(request, timeout: .seconds(10))
        return String(buffer: try await response.body.collect(upTo: 1 << 20))
    }
}

@Suite struct ReadmeBridgesExamplesTests {
    // README: "AsyncHTTPClient"
    @Test(.cassette("greeting", record: .never))
    func greeting() async throws {
        let service = GreetingService(http: TonearmHTTPClient(upstream: HTTPClient.shared))
        #expect(try await service.greeting(for: "ada") == #"{"message":"Hello, ada"}"#)
    }

    // README: "AsyncHTTPClient"
    @Test(.stubs(.get("https://api.example.com/greetings/ada", .json(#"{"message":"Hi"}"#), .failure(.timedOut))))
    func stubbedThenTimedOut() async throws {
        let service = GreetingService(http: TonearmHTTPClient())
        #expect(try await service.greeting(for: "ada") == #"{"message":"Hi"}"#)
        await #expect(throws: HTTPClientError.deadlineExceeded) { try await service.greeting(for: "ada") }
    }

    // README: "OpenAPI generated clients"
    @Test(.cassette("generatedClient", record: .never))
    func generatedClient() async throws {
        let client = Client(
            serverURL: try Servers.Server1.url(),
            transport: TonearmClientTransport(upstream: URLSessionTransport()))
        let response = try await client.getGreeting(path: .init(name: "ada"))
        #expect(try response.ok.body.json.message == "Hello, ada")
    }

    // README: "swift-http-types"
    @Test func httpTypes() throws {
        let head = try HTTPRequest(Request(method: "GET", url: "https://api.example.com/me"))
        #expect(head.authority == "api.example.com")
        let request = Request(head, body: [])   // back to Tonearm, to match or record
        #expect(request.url == "https://api.example.com/me")
    }
}
