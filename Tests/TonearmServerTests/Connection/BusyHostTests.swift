import Dispatch
import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// An embedded server's waits (a track's delay, the upstream deadline) keep time while the host process
/// keeps Dispatch's global queue busy, as a test runner or an app may. They were `Task.sleep`, which on
/// Linux is woken through that queue: with it held, a 1 s sleep took 5.8 s. (On Linux the cooperative
/// pool draws on the same worker threads, so holding the queue stalls every Swift task in the process
/// that does not run on an executor of its own.)
// Serialized: each case holds the process's shared threads, so two at once would each hold part of them.
@Suite("Server in a busy process", .serialized)
struct BusyHostTests {
    /// How long the shared threads are held at most; a server whose timers need them answers only once
    /// this has passed.
    private static let hold = Duration.seconds(20)

    /// Sends `text` to the server and reads until it closes, on a thread of its own, while every thread
    /// of Dispatch's global queue is held blocked; releases them once the answer is in. Returns the
    /// answer and how long it took.
    private func exchangeWhileSharedThreadsAreHeld(_ text: String, port: Int) async throws -> (answer: String, took: Duration) {
        let width = ProcessInfo.processInfo.activeProcessorCount
        // The queue adds a thread about once a second while its threads are blocked: enough holders
        // that each thread it adds during the hold takes one.
        let holders = width + Int(Self.hold.components.seconds) * 2
        let started = SharedCount()
        let release = DispatchSemaphore(value: 0)
        let holdSeconds = Int(Self.hold.components.seconds)
        for _ in 0..<holders {
            DispatchQueue.global().async {
                started.value.add(1, ordering: .sequentiallyConsistent)
                // Held from its own start: a holder the starved queue started late still holds the full time.
                _ = release.wait(timeout: .now() + .seconds(holdSeconds))
            }
        }
        let connection = try RawConnection(port: port)
        let (answer, took, held) = try await blocking {
            // Send only once the queue is certainly full: `width` holders are running. Up to 60 s: on one
            // core shared with a busy loop and the whole suite, the holders once took longer than 10 s to start.
            let waitingSince = ContinuousClock.now
            while started.value.load(ordering: .sequentiallyConsistent) < width, ContinuousClock.now - waitingSince < .seconds(60) {
                usleep(1_000)
            }
            let held = started.value.load(ordering: .sequentiallyConsistent) >= width
            let sent = ContinuousClock.now
            connection.send(text)
            let answer = connection.readBlocking().text
            let took = ContinuousClock.now - sent
            for _ in 0..<holders { release.signal() }
            return (answer, took, held)
        }
        try #require(held, "the global queue was never fully held: the test proves nothing")
        return (answer, took)
    }

    @Test("A track's one-second delay is kept while the host's shared threads are all busy")
    func delayKeepsTime() async throws {
        let folder = try TemporaryFolder()
        let cassette = try savedCassette([
            Track(request: Request(url: "https://api.example.com/slow"), response: Response(body: "slow"), delay: .seconds(1))
        ], in: folder)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette))

        let (answer, took) = try await exchangeWhileSharedThreadsAreHeld(
            "GET /api.example.com/slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        try await server.stop()

        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.hasSuffix("slow"))
        #expect(took >= .seconds(1))
        #expect(took < Self.hold / 2, "took \(took): the delay waited for the held threads")
    }

    @Test("The upstream deadline (1 s) fires while the host's shared threads are all busy")
    func upstreamDeadlineKeepsTime() async throws {
        let upstream = try await TestUpstream(byteInterval: .seconds(1)) { _ in
            Response(status: 200, body: Array(repeating: UInt8(ascii: "x"), count: 120))
        }
        let host = try #require(UpstreamHost(upstream.origin))
        let server = try await TonearmServer.start(ServerConfiguration(
            mode: .passthrough, hosts: [host], limits: .init(upstreamTimeout: .seconds(1)), log: { _ in }))

        let (answer, took) = try await exchangeWhileSharedThreadsAreHeld(
            "GET /\(upstream.authority)/drip HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        try await server.stop()
        try await upstream.stop()

        #expect(answer.hasPrefix("HTTP/1.1 504"))
        #expect(took < Self.hold / 2, "took \(took): the deadline waited for the held threads")
    }
}
