import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport

/// Chromium, and a Python with Playwright to drive it: `TONEARM_BROWSER_PYTHON` and `TONEARM_CHROMIUM`,
/// else the virtual environment `.ci/run` creates in `.build/python-venv` and Debian's `chromium`.
enum InspectorBrowser {
    static let python: String? = {
        if let given = ProcessInfo.processInfo.environment["TONEARM_BROWSER_PYTHON"], !given.isEmpty { return given }
        let venv = packageRoot.appendingPathComponent(".build/python-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv) else { return nil }
        let hasPlaywright = FileManager.default.fileExists(
            atPath: packageRoot.appendingPathComponent(".build/python-venv/lib").path)
            && (try? ProcessRun.runBlocking(venv, ["-c", "import playwright"], environment: nil).status) == 0
        return hasPlaywright ? venv : nil
    }()

    static let chromium: String? = {
        let candidates = [ProcessInfo.processInfo.environment["TONEARM_CHROMIUM"] ?? "", "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.first { !$0.isEmpty && FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// CI sets `TONEARM_REQUIRE_BROWSER=1`: there a missing browser fails instead of skipping.
    static let required = ProcessInfo.processInfo.environment["TONEARM_REQUIRE_BROWSER"] == "1"

    static var available: Bool { python != nil && chromium != nil }

    static let missingMessage = "no Chromium or no Playwright: run .ci/run once (it installs chromium and pip-installs playwright into .build/python-venv)"
}

@Suite("Server: the inspector page in a real browser")
struct InspectorBrowserTests {
    @Test("CI has Chromium and Playwright", .enabled(if: InspectorBrowser.required, "local run: the browser is optional"))
    func browserPresentInCI() {
        #expect(InspectorBrowser.available, Comment(rawValue: InspectorBrowser.missingMessage))
    }

    @Test(
        """
        Live updates, filters, detail, Accept writes the file and the request then hits, Record, Dismiss, the mode switch, \
        Explain, 10,000 exchanges, the token, another origin, and recorded markup that runs nothing
        """,
        .enabled(if: InspectorBrowser.available, Comment(rawValue: InspectorBrowser.missingMessage)),
        .timeLimit(.minutes(5)))
    func page() async throws {
        let folder = try TemporaryFolder()
        let markup = "</textarea><img src=x onerror=window.pwned=2>"
        let cassette = try savedCassette([
            Track(
                request: Request(url: "https://api.example.com/v1/users?page=1"),
                response: Response(
                    status: 200, headers: [HeaderField("Content-Type", "application/json"), HeaderField("X-Note", markup)],
                    body: #"{"users":[{"id":1,"name":"<script>window.pwned=1</script>"}]}"#)),
            Track(
                request: Request(method: "POST", url: "https://api.example.com/v1/orders", headers: [HeaderField("Content-Type", "application/json")], body: #"{"item": 1}"#),
                response: Response(status: 201, body: #"{"order": 7}"#)),
            Track(
                request: Request(url: "https://api.example.com/logo.png"),
                response: Response(status: 200, headers: [HeaderField("Content-Type", "image/png")], body: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])),
            // Never asked for: the cassette tab marks it never replayed.
            Track(request: Request(method: "DELETE", url: "https://api.example.com/v1/users/9"), response: Response(status: 204)),
        ], in: folder)
        let upstream = try await TestUpstream { _ in Response(status: 200, body: "upstream says hello") }
        var configuration = quietConfiguration(cassette: cassette, hosts: [upstream.origin])
        configuration.journal.limit = 10_000
        let server = try await TonearmServer.start(configuration)
        let screenshots = ProcessInfo.processInfo.environment["TONEARM_UPDATE_SCREENSHOTS"] == "1"
            ? packageRoot.appendingPathComponent("docs/images").path : nil
        let settings: [String: Any?] = [
            "inspector": try #require(server.inspectorURL).absoluteString, "base": server.baseURL.absoluteString,
            "cassette": cassette.path, "upstream": upstream.authority, "chromium": InspectorBrowser.chromium, "screenshots": screenshots,
        ]
        let file = folder.file("browser.json")
        try JSONSerialization.data(withJSONObject: settings.mapValues { $0 ?? NSNull() }).write(to: file)
        let run = try await ProcessRun.run(
            try #require(InspectorBrowser.python),
            [packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/inspector_browser.py").path, file.path])
        try await server.stop()
        try await upstream.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("checks passed"), "\(run.output)")
    }

    @Test(
        "A WebSocket in the page: listed by its handshake, noted with its messages and close once it ends (live), its detail each message with its sender and content as text",
        .enabled(if: InspectorBrowser.available, Comment(rawValue: InspectorBrowser.missingMessage)),
        .timeLimit(.minutes(3)))
    func webSocket() async throws {
        let folder = try TemporaryFolder()
        let handshake = [HeaderField("Upgrade", "websocket"), HeaderField("Connection", "Upgrade"), HeaderField("Sec-WebSocket-Version", "13")]
        let cassette = try savedCassette([
            Track(
                request: Request(url: "https://chat.example.com/socket", headers: handshake), response: Response(status: 101),
                webSocket: WebSocketConversation(messages: [
                    .text(.server, "<img src=x onerror=window.pwned=3> welcome", at: .milliseconds(10)),
                    .text(.client, #"{"op":"ask","q":"hi"}"#, at: .milliseconds(100)),
                    .text(.server, "answer", at: .milliseconds(150)),
                    .binary(.server, [1, 2, 3], at: .milliseconds(200)),
                ]))
        ], in: folder)
        let server = try await TonearmServer.start(quietConfiguration(cassette: cassette))
        let settings: [String: Any] = [
            "inspector": try #require(server.inspectorURL).absoluteString, "chromium": try #require(InspectorBrowser.chromium),
            "socket": "ws://127.0.0.1:\(server.port)/chat.example.com/socket",
        ]
        let file = folder.file("browser.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        let run = try await ProcessRun.run(
            try #require(InspectorBrowser.python),
            [packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/inspector_streams_browser.py").path, file.path])
        try await server.stop()
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.contains("checks passed"), "\(run.output)")
    }
}
