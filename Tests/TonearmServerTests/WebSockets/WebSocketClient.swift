import Foundation
import Testing
import TonearmTestSupport

/// PyPI `websockets` as a real client (Python/websocket_client.py), from the virtual environment
/// `.ci/run` creates in `.build/python-venv` (or `TONEARM_WEBSOCKETS_PYTHON`).
enum WebSocketClient {
    static let python: String? = {
        if let given = ProcessInfo.processInfo.environment["TONEARM_WEBSOCKETS_PYTHON"], !given.isEmpty { return given }
        let venv = packageRoot.appendingPathComponent(".build/python-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv),
            (try? ProcessRun.runBlocking(venv, ["-c", "import websockets"], environment: nil).status) == 0
        else { return nil }
        return venv
    }()

    static var available: Bool { python != nil }
    /// CI requires the virtual environment (`TONEARM_REQUIRE_WIREMOCK_PYTHON=1`): there a missing one fails.
    static let required = ProcessInfo.processInfo.environment["TONEARM_REQUIRE_WIREMOCK_PYTHON"] == "1"
    static let missingMessage = "no Python with PyPI websockets: run .ci/run once (it pip-installs websockets into .build/python-venv)"

    /// One line the client printed, as JSON.
    typealias Event = [String: Any]

    /// Runs `steps` (see the script) against `url` and returns what the client saw, one event a line.
    static func run(_ url: String, _ steps: [[String: Any]], environment: [String: String] = [:]) async throws -> [Event] {
        let script = packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/websocket_client.py").path
        let stepsText = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let run = try await ProcessRun.run(try #require(python), [script, url, stepsText], environment: clientEnvironment(environment))
        let events = run.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? Event
        }
        #expect(run.status == 0 || events.contains { $0["closed"] != nil }, "\(run.output)\n\(run.errors)")
        return events
    }

    /// Returns once a `{"signal": path}` step has created `file` (the client got that far), checking
    /// every 20 ms for at most a minute.
    static func waitFor(_ file: URL) async throws {
        for _ in 0..<3_000 where !FileManager.default.fileExists(atPath: file.path) {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(FileManager.default.fileExists(atPath: file.path), "the client never reached its signal step")
    }
}
