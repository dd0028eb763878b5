import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// An app often sends the same request from two places at once. In `missing` mode the server records it
/// once, and the copies that arrived while it was being fetched are answered from the new track.
@Suite("Concurrent recording")
struct ConcurrentRecordingTests {
    /// Sends `count` GETs of `path` at once through `server` to `upstream`.
    private func sendTogether(
        _ count: Int, paths: @escaping @Sendable (Int) -> String, server: TonearmServer, upstream: TestUpstream
    ) async throws -> [ClientResponse] {
        try await sendTogether(count, paths: paths, server: server, authority: upstream.authority)
    }

    private func sendTogether(
        _ count: Int, paths: @escaping @Sendable (Int) -> String, server: TonearmServer, authority: String
    ) async throws -> [ClientResponse] {
        let base = server.baseURL(for: authority).absoluteString
        return try await withThrowingTaskGroup(of: ClientResponse.self) { group in
            for index in 0..<count {
                let path = paths(index)
                group.addTask { try await TestClient.send(base + path) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("Identical requests that miss together are fetched once and recorded once")
    func identicalRequestsRecordedOnce() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("together.json")
        // The upstream holds its answer long enough for every copy to arrive while it is being fetched.
        let upstream = try await TestUpstream(delay: .milliseconds(300))
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        let responses = try await sendTogether(32, paths: { _ in "/v1/config" }, server: server, upstream: upstream)
        try await server.stop()
        try await upstream.stop()

        #expect(responses.allSatisfy { $0.status == 200 && $0.text.contains("/v1/config") })
        #expect(upstream.requests.count == 1)
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 1)
        let sources = server.journal.map(\.source.kind)
        #expect(sources.filter { $0 == "network" }.count == 1)
        #expect(sources.filter { $0 == "recorded" }.count == 31)
    }

    @Test("Different requests in flight together are each fetched and recorded")
    func differentRequestsNotMerged() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("different.json")
        let upstream = try await TestUpstream(delay: .milliseconds(200))
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        let responses = try await sendTogether(16, paths: { "/v1/items/\($0)" }, server: server, upstream: upstream)
        try await server.stop()
        try await upstream.stop()

        #expect(responses.allSatisfy { $0.status == 200 })
        #expect(Set(upstream.requests.map(\.url)).count == 16)
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 16)
    }

    @Test("Under uniquePlay every identical request is still fetched and recorded, as one after another would be")
    func uniquePlayRecordsEach() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("unique.json")
        let upstream = try await TestUpstream(delay: .milliseconds(200))
        var configuration = quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin])
        configuration.strategy = .uniquePlay
        let server = try await TonearmServer.start(configuration)
        let responses = try await sendTogether(8, paths: { _ in "/v1/token" }, server: server, upstream: upstream)
        try await server.stop()
        try await upstream.stop()

        #expect(responses.allSatisfy { $0.status == 200 })
        #expect(upstream.requests.count == 8)
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 8)
    }

    @Test("Identical requests waiting on an upstream that is down all get its 502, and nothing is recorded")
    func failureShared() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("down.json")
        let down = try RefusingPort()
        let origin = down.origin
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [origin]))
        let responses = try await sendTogether(16, paths: { _ in "/v1/config" }, server: server, authority: down.authority)
        try await server.stop()
        withExtendedLifetime(down) {}

        #expect(responses.allSatisfy { $0.status == 502 && $0.text.contains(origin) })
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
    }
}
