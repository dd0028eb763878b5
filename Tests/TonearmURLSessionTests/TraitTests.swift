import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmTesting
import TonearmURLSession

/// Cassettes for these tests are checked in under `__Cassettes__/TraitTests/`.
@Suite(.cassettes(strategy: .uniquePlay, record: .never))
struct TraitTests {
    @Test(.cassette) func namedAfterTheTest() async throws {
        let session = try #require(TonearmSession.current)
        #expect(session.cassetteURL?.path.hasSuffix("__Cassettes__/TraitTests/namedAfterTheTest.json") == true)
        #expect(session.mode == .never || ProcessInfo.processInfo.environment["TONEARM_RECORD"] != nil)
        let (data, _) = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/ping"))
        #expect(String(decoding: data, as: UTF8.self) == "pong")
    }

    @Test(.cassette("shared-tickets")) func suiteDefaultsApply() async throws {
        // The suite chose unique-play: the single recorded ticket plays once, then the key is exhausted.
        _ = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/ticket"))
        // The second play misses; the trait records that as an issue where the request is made.
        await withKnownIssue {
            await #expect(throws: URLError.self) {
                _ = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/ticket"))
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("exhausted") }
        }
        let miss = try #require(TonearmSession.current?.takeMisses().first)
        #expect("\(miss.report.reason)".contains("exhausted"))
    }

    @Test(.cassette("shared-tickets", strategy: .repeat)) func testOptionsOverrideSuiteDefaults() async throws {
        for _ in 0..<3 {
            let (data, _) = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/ticket"))
            #expect(String(decoding: data, as: UTF8.self) == "ticket 1")
        }
    }

    @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))))
    func stubsTraitScopesInlineStubs() async throws {
        let (data, _) = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/me"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ada"}"#)
    }

    @Test func outsideAScopeRequestsFailWithAHint() async throws {
        let error = await #expect(throws: URLError.self) {
            _ = try await URLSession.tonearm.data(from: try .literal("https://api.example.com/me"))
        }
        #expect(error?.localizedDescription.contains("no Tonearm session is active") == true)
    }
}
