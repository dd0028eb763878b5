// README's imports for a test file, and no others: they must be enough for every example below.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking   // URLSession and URLRequest on Linux
#endif
import Testing                // or XCTest
import TonearmTesting
import XCTest

// Every example of README's "URLSession: record, replay and stub in tests", verbatim, so the README
// cannot drift from the API. The environment example uses the global slot, so it lives in the serialized
// EnvironmentTests suite. The suite is named as README's paths are (`__Cassettes__/SignInTests/…`).

@Suite struct SignInTests {
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

    // README: "Without a trait", a cassette file
    @Test func cassetteWithoutATrait() async throws {
        var signInRequest = URLRequest(url: try #require(URL(string: "https://api.example.com/sign-in")))
        signInRequest.httpMethod = "POST"
        signInRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        signInRequest.httpBody = Data(#"{"user":"ada","otp":"123456"}"#.utf8)

        // README begin
        let cassette = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Cassettes__/SignInTests/signIn.json")
        let recorded = try TonearmSession.cassette(
            at: cassette, options: CassetteOptions(strategy: .uniquePlay, record: .never))
        defer { try? recorded.finish() }

        let (token, _) = try await recorded.urlSession.data(for: signInRequest)
        // README end
        #expect(String(decoding: token, as: UTF8.self) == #"{"token":"abc"}"#)
    }

    // README: "When a request misses"
    @Test(.cassette("signIn", record: .never))
    func unknownEndpointMisses() async throws {
        await withKnownIssue {
            _ = try await URLSession.tonearm.data(from: try #require(URL(string: "https://api.example.com/nope")))
        }
    }
}

// README: "XCTest"
final class SignInXCTests: XCTestCase {
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
