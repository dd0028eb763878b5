import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmTesting
import TonearmURLSession
import XCTest

// Every example of docs/README-urlsession-section.md, verbatim, so the README cannot drift from the API.
// The environment example uses the global slot, so it lives in the serialized EnvironmentTests suite.

@Suite struct ReadmeURLSessionExamplesTests {
    // README: "Replay a cassette in a Swift Testing test"
    @Test(.cassette("signIn", matching: [.method, .url, .query, .body], strategy: .uniquePlay, record: .never))
    func signIn() async throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/sign-in")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"user":"ada","otp":"123456"}"#.utf8)

        let (data, response) = try await URLSession.tonearm.data(for: request)

        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"token":"abc"}"#)
    }

    // README: "Inline stubs"
    @Test(.stubs(
        .get("https://api.example.com/me", .json(#"{"name":"Ada"}"#)),
        .post("https://api.example.com/jobs", .status(202, headers: ["Location": "/jobs/1"])),
        .get("https://api.example.com/jobs/1", .text("running"), .failure(.timedOut), .text("done")),
        .rule(#"^https://cdn\.example\.com/.*\.png$"#, .data(Data([0x89, 0x50]), contentType: "image/png"))
    ))
    func jobLifecycle() async throws {
        let job = try #require(URL(string: "https://api.example.com/jobs/1"))
        let (first, _) = try await URLSession.tonearm.data(from: job)
        #expect(String(decoding: first, as: UTF8.self) == "running")
        await #expect(throws: URLError.self) { _ = try await URLSession.tonearm.data(from: job) }
        let (last, _) = try await URLSession.tonearm.data(from: job)
        #expect(String(decoding: last, as: UTF8.self) == "done")
    }

    // README: "Without a trait"
    @Test func withoutATrait() async throws {
        let tonearm = try TonearmSession.stubs([
            .get("https://api.example.com/me", .json(#"{"name":"Ada"}"#).delayed(by: .milliseconds(20)))
        ])
        defer { try? tonearm.finish() }

        let client = URLSession(configuration: tonearm.makeConfiguration(from: .default))
        let (data, _) = try await client.data(from: try #require(URL(string: "https://api.example.com/me")))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ada"}"#)
    }
}

// README: "XCTest"
final class ReadmeSignInXCTests: XCTestCase {
    override func invokeTest() {
        withCassette("signIn", options: CassetteOptions(record: .never)) { super.invokeTest() }
    }

    func testSignIn() async throws {
        var request = URLRequest(url: try XCTUnwrap(URL(string: "https://api.example.com/sign-in")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"user":"ada","otp":"123456"}"#.utf8)
        let (data, _) = try await URLSession.tonearm.data(for: request)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"token":"abc"}"#)
    }
}
