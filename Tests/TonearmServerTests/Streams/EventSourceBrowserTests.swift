import Foundation
import Testing
import Tonearm
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// A replayed stream as a browser's `EventSource` reads it: every message, in order, none sooner than
/// its recorded time (Chromium driven by Playwright, as the inspector's browser tests are).
@Suite("Streams: a real browser's EventSource")
struct EventSourceBrowserTests {
    @Test(
        "A paced Server-Sent Events replay reaches a browser's EventSource message by message, none sooner than recorded",
        .enabled(if: InspectorBrowser.available, Comment(rawValue: InspectorBrowser.missingMessage)),
        .timeLimit(.minutes(2)))
    func eventSource() async throws {
        let folder = try TemporaryFolder()
        let offsets = [0, 150, 300, 600]
        let events = offsets.indices.map { "data: token \($0)\n\n" }
        let track = Track(
            request: Request(url: "https://api.example.com/v1/stream"),
            response: Response(
                status: 200,
                headers: [HeaderField("Content-Type", "text/event-stream")],
                body: events.joined()),
            pacing: BodyPacing(parts: zip(offsets, events).map { .init(offset: .milliseconds($0.0), byteCount: $0.1.utf8.count) }))
        let cassette = try savedCassette([track], in: folder)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        let run = try await ProcessRun.run(
            try #require(InspectorBrowser.python),
            [
                packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/eventsource_browser.py").path,
                server.baseURL.absoluteString + "/api.example.com/v1/stream", try #require(InspectorBrowser.chromium),
                "\(offsets)",
            ])
        try await server.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("checks passed"), "\(run.output)")
    }
}
