import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmURLSession
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// `upstreamTimeout` bounds the whole upstream exchange: connecting, the head and every byte of the
/// body. An upstream that sends its head at once and then drips its body used to hold the exchange open
/// for as long as it kept dripping.
@Suite("Upstream deadline")
struct UpstreamDeadlineTests {
    /// How the client names the upstream.
    enum Route: String, CaseIterable, Sendable {
        case hostInPath = "host in path"
        case singleUpstream = "--upstream"
        case forwardProxy = "forward proxy"
    }

    /// An upstream sending its head at once and then one body byte a second, for far longer than any
    /// deadline in these tests.
    private func drippingUpstream() async throws -> TestUpstream {
        try await TestUpstream(byteInterval: .seconds(1)) { _ in
            Response(status: 200, headers: [HeaderField("Content-Type", "text/plain")], body: Array(repeating: UInt8(ascii: "x"), count: 120))
        }
    }

    /// One request sent on a raw connection, read until the server closes it, and how long that took:
    /// timed on the reading thread, so a test runner whose cooperative threads are busy does not add its
    /// own wait to the server's.
    private func exchange(_ target: String, port: Int) async throws -> (head: String, body: String, closed: Bool, took: Duration) {
        let connection = try RawConnection(port: port)
        let (text, closed, took) = try await blocking {
            let started = ContinuousClock.now
            connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (text, closed) = connection.readBlocking()
            return (text, closed, ContinuousClock.now - started)
        }
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"), closed, took)
    }

    @Test("An upstream dripping its body one byte a second is answered 504 once upstreamTimeout (2 s) has passed; journaled as an upstream error, nothing recorded")
    func drippingBody() async throws {
        let folder = try TemporaryFolder()
        let upstream = try await drippingUpstream()
        let earlier = Track(request: Request(url: upstream.origin + "/earlier"), response: Response(status: 200, body: "earlier"))
        let cassette = try savedCassette([earlier], in: folder)
        let server = try await TonearmServer.start(ServerConfiguration(
            cassette: cassette, mode: .missing, hosts: [try #require(UpstreamHost(upstream.origin))],
            limits: .init(upstreamTimeout: .seconds(2)), log: { _ in }))

        let answer = try await exchange("/\(upstream.authority)/drip", port: server.port)
        try await server.stop()
        try await upstream.stop()

        #expect(answer.head.hasPrefix("HTTP/1.1 504"))
        #expect(answer.head.contains("Tonearm-Upstream-Error: \(upstream.origin)"))
        #expect(answer.body.contains("within 2.0 seconds"))
        #expect(answer.body.contains("--upstream-timeout"))
        #expect(answer.closed)
        // 2 s and the answer, not the two minutes the upstream would drip for (generous: a loaded runner
        // can starve the event loops for many seconds).
        #expect(answer.took < .seconds(60))
        #expect(upstream.requests.count == 1)
        #expect(server.journal.last?.source.kind == "upstream-error")
        #expect(server.journal.last?.response?.status == 504)
        let tracks = try CassetteFile.load(cassette).cassette.tracks
        #expect(tracks.map(\.request.url) == [earlier.request.url])
    }

    @Test("The same deadline holds on every route and in every mode that reaches the network", arguments: Route.allCases, [RecordMode.missing, .all, .passthrough])
    func everyRoute(route: Route, mode: RecordMode) async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("routes.json")
        let upstream = try await drippingUpstream()
        let host = try #require(UpstreamHost(upstream.origin))
        let server = try await TonearmServer.start(ServerConfiguration(
            cassette: cassette, mode: mode, hosts: route == .singleUpstream ? [] : [host],
            upstream: route == .singleUpstream ? host : nil, limits: .init(upstreamTimeout: .seconds(1)), log: { _ in }))
        let target = switch route {
        case .hostInPath: "/\(upstream.authority)/drip"
        case .singleUpstream: "/drip"
        case .forwardProxy: "\(upstream.origin)/drip"
        }

        let answer = try await exchange(target, port: server.port)
        try await server.stop()
        try await upstream.stop()

        #expect(answer.head.hasPrefix("HTTP/1.1 504"))
        #expect(answer.head.contains("Tonearm-Upstream-Error"))
        #expect(answer.took < .seconds(60))
        #expect(server.journal.last?.source.kind == "upstream-error")
        let recorded = FileManager.default.fileExists(atPath: cassette.path) ? try CassetteFile.load(cassette).cassette.tracks.count : 0
        #expect(recorded == 0)
    }
}
