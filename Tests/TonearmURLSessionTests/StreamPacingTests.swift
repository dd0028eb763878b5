import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import Tonearm
import TonearmReplay
import TonearmURLSession

/// A replayed stream reaches a URLSession delegate in parts, each no earlier than its recorded time
/// (checked only as a lower bound from when the task started), or whole with pacing off.
@Suite("URLSession: replayed streams")
struct StreamPacingTests {
    static let events = ["data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"]

    static func engine() -> ReplayEngine {
        let body = events.joined()
        let track = Track(
            request: Request(url: "https://api.example.com/v1/stream"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "text/event-stream")], body: body),
            pacing: BodyPacing(parts: [
                .init(offset: .zero, byteCount: 11), .init(offset: .milliseconds(200), byteCount: 11),
                .init(offset: .milliseconds(400), byteCount: 14),
            ]))
        return ReplayEngine(tracks: [track])
    }

    /// Collects what a data task receives, with when.
    final class Collector: NSObject, URLSessionDataDelegate, Sendable {
        let received = Mutex<[(ContinuousClock.Instant, Data)]>([])
        let done = Mutex<CheckedContinuation<Void, Never>?>(nil)

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            received.withLock { $0.append((.now, data)) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            done.withLock { $0?.resume(); $0 = nil }
        }
    }

    private func load(_ pacing: StreamPacing) async throws -> (started: ContinuousClock.Instant, parts: [(ContinuousClock.Instant, Data)]) {
        let replay = ReplaySession(engine: Self.engine())
        replay.streamPacing = pacing
        let tonearm = TonearmSession(replaying: replay)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [tonearm.protocolClass]
        let collector = Collector()
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        let started = ContinuousClock.now
        await withCheckedContinuation { continuation in
            collector.done.withLock { $0 = continuation }
            session.dataTask(with: URL(string: "https://api.example.com/v1/stream")!).resume()
        }
        session.finishTasksAndInvalidate()
        return (started, collector.received.withLock { $0 })
    }

    @Test("As recorded: the delegate gets the events in parts, the last no earlier than 400 ms after the task started")
    func asRecorded() async throws {
        let (started, parts) = try await load(.recorded)
        #expect(String(decoding: parts.flatMap { Array($0.1) }, as: UTF8.self) == Self.events.joined())
        #expect(parts.count == 3)
        let last = try #require(parts.last)
        #expect(last.0 - started >= .milliseconds(400))
        #expect(parts[1].0 - started >= .milliseconds(200))
    }

    @Test("Pacing off: the whole body in one part")
    func off() async throws {
        let (_, parts) = try await load(.immediate)
        #expect(parts.count == 1)
        #expect(String(decoding: parts.flatMap { Array($0.1) }, as: UTF8.self) == Self.events.joined())
    }

    @Test("Cassette options (what the traits fill) set the pacing; without one, the environment's TONEARM_STREAM_PACING; suite defaults fill a test's")
    func cassetteOptions() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-pacing-\(UInt64.random(in: 0...UInt64.max)).json")
        try Data(#"{"formatVersion": 1, "tracks": []}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let chosen = try ReplaySession.cassette(at: file, options: CassetteOptions(record: .never, streamPacing: .immediate), environment: [:])
        #expect(chosen.streamPacing == .immediate)
        let fromEnvironment = try ReplaySession.cassette(at: file, options: CassetteOptions(record: .never), environment: ["TONEARM_STREAM_PACING": "0.5"])
        #expect(fromEnvironment.streamPacing == StreamPacing.scaled(0.5))
        #expect(CassetteOptions().filling(from: CassetteOptions(streamPacing: .immediate)).streamPacing == .immediate)
    }
}
