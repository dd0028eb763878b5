import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
import TonearmURLSession

/// In `missing` mode a track recorded a moment ago answers the requests after it: it counts as played
/// once, by the request that recorded it (docs/testing.md, "Recording in missing mode").
@Suite struct MissingModeAnsweringTests {
    /// A server whose every reply is numbered, so a test can tell a replay from a fresh fetch.
    static func countingServer() throws -> HTTPTestServer {
        let counter = Mutex(0)
        return try HTTPTestServer { _ in
            let number = counter.withLock { count in
                count += 1
                return count
            }
            return .init(headers: [("Content-Type", "text/plain")], text: "reply \(number)")
        }
    }

    /// Sends the same GET three times in a row, then once more after a reset, and returns the bodies,
    /// the sources, how many requests reached the server and how many tracks the cassette holds.
    static func repeatedRequests(
        strategy: Strategy
    ) async throws -> (bodies: [String], sources: [LoggedExchange.Source], served: Int, recorded: Int) {
        let folder = try TemporaryFolder()
        let server = try countingServer()
        defer { server.stop() }
        let cassette = folder.file("repeated.json")
        let session = try TonearmSession.cassette(
            at: cassette, options: .init(strategy: strategy, record: .missing), environment: [:])
        var bodies: [String] = []
        for _ in 0..<3 {
            let (data, _) = try await session.urlSession.data(from: try .literal(server.baseURL + "/same"))
            bodies.append(String(decoding: data, as: UTF8.self))
        }
        let sources = session.exchanges.map(\.source)
        try session.finish()
        return (bodies, sources, server.received.count, try CassetteFile.load(cassette).cassette.entries.count)
    }

    @Test("repeat: the first request is recorded, identical requests after it replay it")
    func repeatReplaysTheRecording() async throws {
        let result = try await Self.repeatedRequests(strategy: .repeat)
        #expect(result.bodies == ["reply 1", "reply 1", "reply 1"])
        #expect(result.sources == [.network, .replayed, .replayed])
        #expect(result.served == 1)
        #expect(result.recorded == 1)
    }

    @Test("fifo (repeat last): identical requests replay the last recorded track")
    func fifoRepeatsTheLastRecording() async throws {
        let result = try await Self.repeatedRequests(strategy: .fifo())
        #expect(result.bodies == ["reply 1", "reply 1", "reply 1"])
        #expect(result.sources == [.network, .replayed, .replayed])
        #expect(result.served == 1)
    }

    @Test("unique-play: every identical request reaches the network and is recorded in turn")
    func uniquePlayRecordsTheSequence() async throws {
        let result = try await Self.repeatedRequests(strategy: .uniquePlay)
        #expect(result.bodies == ["reply 1", "reply 2", "reply 3"])
        #expect(result.sources == [.network, .network, .network])
        #expect(result.served == 3)
        #expect(result.recorded == 3)
    }

    @Test("repeat: identical requests sent together are fetched and recorded once, the others replay it")
    func concurrentIdenticalRequestsRecordedOnce() async throws {
        let folder = try TemporaryFolder()
        let counter = Mutex(0)
        // Slow enough that every copy misses while the first is being fetched.
        let server = try HTTPTestServer { _ in
            Thread.sleep(forTimeInterval: 0.3)
            let number = counter.withLock { count in
                count += 1
                return count
            }
            return .init(headers: [("Content-Type", "text/plain")], text: "reply \(number)")
        }
        defer { server.stop() }
        let cassette = folder.file("together.json")
        let session = try TonearmSession.cassette(
            at: cassette, options: .init(strategy: .repeat, record: .missing), environment: [:])
        let url = try URL.literal(server.baseURL + "/config")
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask { String(decoding: try await session.urlSession.data(from: url).0, as: UTF8.self) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try session.finish()
        #expect(bodies == Array(repeating: "reply 1", count: 16))
        #expect(server.received.count == 1)
        #expect(try CassetteFile.load(cassette).cassette.entries.count == 1)
        #expect(session.exchanges.filter { $0.source == .network }.count == 1)
    }

    @Test("unique-play: the recorded sequence replays in order once the cassette is loaded again")
    func uniquePlaySequenceReplays() async throws {
        let folder = try TemporaryFolder()
        let server = try Self.countingServer()
        let cassette = folder.file("sequence.json")
        let recording = try TonearmSession.cassette(
            at: cassette, options: .init(strategy: .uniquePlay, record: .missing), environment: [:])
        for _ in 0..<2 { _ = try await recording.urlSession.data(from: try .literal(server.baseURL + "/same")) }
        try recording.finish()
        server.stop()
        let replaying = try TonearmSession.cassette(
            at: cassette, options: .init(strategy: .uniquePlay, record: .never), environment: [:])
        var bodies: [String] = []
        for _ in 0..<2 {
            let (data, _) = try await replaying.urlSession.data(from: try .literal(server.baseURL + "/same"))
            bodies.append(String(decoding: data, as: UTF8.self))
        }
        try replaying.finish()
        #expect(bodies == ["reply 1", "reply 2"])
    }

    @Test("strict order: a recorded track is appended to the order, already consumed")
    func strictOrderAppendsConsumed() async throws {
        let result = try await Self.repeatedRequests(strategy: .strictOrder)
        #expect(result.bodies == ["reply 1", "reply 2", "reply 3"])
        #expect(result.served == 3)
        #expect(result.recorded == 3)
    }

    @Test("the session's engine holds a track as soon as it is recorded")
    func recordedTrackAnswersWithoutASecondFetch() async throws {
        let folder = try TemporaryFolder()
        let server = try Self.countingServer()
        defer { server.stop() }
        let session = try TonearmSession.cassette(
            at: folder.file("engine.json"), options: .init(record: .missing), environment: [:])
        _ = try await session.urlSession.data(from: try .literal(server.baseURL + "/a"))
        #expect(session.engine.tracks.count == 1, "the engine holds the track it just recorded")
        let request = Request(method: "GET", url: server.baseURL + "/a")
        let body = session.engine.match(request).hit?.track.response?.body
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == "reply 1")
        try session.finish()
    }
}
