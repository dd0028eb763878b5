import AsyncHTTPClient
import Foundation
import OpenAPIRuntime
import Testing
import TonearmAsyncHTTPClient
import TonearmOpenAPI
import TonearmReplay
import TonearmTesting

/// Under a `.stubs` or `.cassette` trait, a miss is recorded as an issue in the task that made the
/// request, whichever bridge made it, so `withKnownIssue` around the request absorbs it. (Recorded when
/// the test's scope ended instead, it would escape `withKnownIssue` and fail these tests.)
@Suite struct MissInRequestingTaskTests {
    @Test(.stubs(.get("https://api.example.com/known", .json(#"{"ok":true}"#))))
    func asyncHTTPClientMissIsAbsorbedByWithKnownIssue() async throws {
        await withKnownIssue {
            // Swallowed, as code under test often does: the trait's issue alone must match.
            _ = try? await TonearmHTTPClient().execute(HTTPClientRequest(url: "https://api.example.com/unknown"), timeout: .seconds(5))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("has no answer for GET https://api.example.com/unknown")
        }
        let answered = try await TonearmHTTPClient().execute(HTTPClientRequest(url: "https://api.example.com/known"), timeout: .seconds(5))
        #expect(answered.status == .ok)
    }

    @Test(.stubs(.get("https://api.example.com/greetings/ada", .json(#"{"message":"Hello, ada"}"#))))
    func openAPIMissIsAbsorbedByWithKnownIssue() async throws {
        let client = Client(
            serverURL: try #require(URL(string: "https://api.example.com")), transport: TonearmClientTransport())
        await withKnownIssue {
            _ = try? await client.getGreeting(path: .init(name: "nobody"))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("has no answer for GET https://api.example.com/greetings/nobody")
        }
        let greeting = try await client.getGreeting(path: .init(name: "ada"))
        #expect(try greeting.ok.body.json.message == "Hello, ada")
    }
}
