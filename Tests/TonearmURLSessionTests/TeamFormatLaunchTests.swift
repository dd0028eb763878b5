import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TonearmTestSupport

/// Each team format end to end, in two processes: the test launches "the app" (TonearmStubbedApp) with
/// the launch arguments and environment a UI test would pass, the app calls `installFromEnvironment()`
/// and makes its requests, and the test checks what it got. A local server stands for the real network,
/// so requests that fall through to it are observable.
@Suite("Team formats in a launched app")
struct TeamFormatLaunchTests {
    /// One answer the app printed.
    struct Answer: Decodable, Equatable {
        var request: String
        var status: Int?
        var contentType: String?
        var body: String?
        var error: Int?
    }

    struct AppRun {
        var status: Int32
        var answers: [Answer]
        var errors: String
    }

    /// Launches the app with `arguments` and `environment` (on top of the runner's, without any
    /// `TONEARM_*` the runner itself has), asking it to make `requests` ("METHOD URL").
    static func launch(arguments: [String] = [], environment: [String: String] = [:], requests: [String]) async throws -> AppRun {
        let app = try #require(builtExecutable("TonearmStubbedApp"))
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TONEARM_") }
        base["APP_REQUESTS"] = requests.joined(separator: "\n")
        let run = try await ProcessRun.run(app.path, arguments, environment: base.merging(environment) { $1 })
        let answers = try run.output.split(separator: "\n").map { try JSONDecoder().decode(Answer.self, from: Data($0.utf8)) }
        return AppRun(status: run.status, answers: answers, errors: run.errors)
    }

    /// The real network: answers every request with `live <path>`.
    static func liveServer() throws -> HTTPTestServer {
        try HTTPTestServer { request in
            HTTPTestServer.Reply(headers: [("Content-Type", "text/plain")], text: "live \(request.path)")
        }
    }

    @Test("STUB_API_CALLS_<name> answers from <name>.bundle; -TONEARM_MISSES network lets the rest reach the network")
    func stubBundleByLaunchArgument() async throws {
        let folder = try TemporaryFolder()
        let bundle = folder.file("login.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(#"{"id":42,"name":"Ada"}"#.utf8).write(to: bundle.appendingPathComponent("user.json"))
        try Data(#"{"error":"bad password"}"#.utf8).write(to: bundle.appendingPathComponent("login_failed.json"))
        let rules: [[String: Any]] = [
            ["matching_url": #"^https://api\.example\.com/users/[0-9]+$"#, "json_file": "user", "http_method": "GET"],
            ["matching_url": "/login$", "json_file": "login_failed", "status_code": 401, "http_method": "POST"],
        ]
        try PropertyListSerialization.data(fromPropertyList: rules, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("stubsRules.plist"))
        let server = try Self.liveServer()
        defer { server.stop() }

        let run = try await Self.launch(
            arguments: ["-AppleLanguages", "(en)", "STUB_API_CALLS_login", "-TONEARM_MISSES", "network"],
            environment: ["TONEARM_STUB_BUNDLES": folder.url.path],
            requests: ["GET https://api.example.com/users/42", "POST https://auth.example.com/login", "GET \(server.baseURL)/feed"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.answers == [
            Answer(request: "GET https://api.example.com/users/42", status: 200, contentType: "application/json", body: #"{"id":42,"name":"Ada"}"#),
            Answer(request: "POST https://auth.example.com/login", status: 401, contentType: "application/json", body: #"{"error":"bad password"}"#),
            Answer(request: "GET \(server.baseURL)/feed", status: 200, contentType: "text/plain", body: "live /feed"),
        ])
        #expect(server.received.map(\.path) == ["/feed"], "only the unstubbed request reached the network")
    }

    @Test("STUB_API_CALLS_<name> reads a bundle whose plist is stubRules.plist and whose entries answer from inline_response")
    func stubRulesPlistWithInlineResponse() async throws {
        let folder = try TemporaryFolder()
        let bundle = folder.file("flags.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let rules: [[String: Any]] = [["matching_url": "/flags$", "inline_response": #"{"dark":true}"#, "http_method": "GET"]]
        try PropertyListSerialization.data(fromPropertyList: rules, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("stubRules.plist"))
        let run = try await Self.launch(
            arguments: ["STUB_API_CALLS_flags"], environment: ["TONEARM_STUB_BUNDLES": folder.url.path],
            requests: ["GET https://api.example.com/flags"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.answers.map(\.body) == [#"{"dark":true}"#])
    }

    @Test("Without TONEARM_MISSES a request no bundle rule answers fails instead of reaching the network")
    func bundleMissesFailByDefault() async throws {
        let folder = try TemporaryFolder()
        let bundle = folder.file("empty.bundle")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: [[String: Any]](), format: .binary, options: 0)
            .write(to: bundle.appendingPathComponent("stubsMapping.plist"))
        let server = try Self.liveServer()
        defer { server.stop() }
        let run = try await Self.launch(
            arguments: ["-STUB_API_CALLS_empty"], environment: ["TONEARM_STUB_BUNDLES": folder.url.path],
            requests: ["GET \(server.baseURL)/feed"])
        #expect(run.answers == [Answer(request: "GET \(server.baseURL)/feed", error: URLError.Code.resourceUnavailable.rawValue)])
        #expect(server.received.isEmpty)
    }

    @Test("A bundle that is not there stops the app with an error naming the argument and where it looked")
    func missingBundle() async throws {
        let folder = try TemporaryFolder()
        let run = try await Self.launch(
            arguments: ["STUB_API_CALLS_checkout"], environment: ["TONEARM_STUB_BUNDLES": folder.url.path], requests: [])
        #expect(run.status == 3)
        #expect(run.errors.contains("launch argument STUB_API_CALLS_checkout: expected \(folder.url.path)/checkout.bundle holding stubsRules.plist or stubRules.plist or stubsMapping.plist"))
    }

    @Test("TONEARM_URL_STUBS=1: environment entries named by URL answer GETs with their JSON, normalised as any track")
    func urlKeyedEnvironment() async throws {
        let server = try Self.liveServer()
        defer { server.stop() }
        let run = try await Self.launch(
            arguments: ["-TONEARM_MISSES", "network"],
            environment: [
                "TONEARM_URL_STUBS": "1",
                "https://api.example.com/me": #"{"name": "Ada", "id": 9007199254740993}"#,
                // An environment name ends at its first "=", so only valueless parameters can be in it.
                "https://API.example.com:443/search?b&a": "[1, 2]",
            ],
            requests: [
                "GET https://api.example.com/me", "GET https://api.example.com/search?a&b", "GET \(server.baseURL)/other",
            ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.answers == [
            Answer(request: "GET https://api.example.com/me", status: 200, contentType: "application/json", body: #"{"name": "Ada", "id": 9007199254740993}"#),
            Answer(request: "GET https://api.example.com/search?a&b", status: 200, contentType: "application/json", body: "[1, 2]"),
            Answer(request: "GET \(server.baseURL)/other", status: 200, contentType: "text/plain", body: "live /other"),
        ])
    }

    @Test("A URL-keyed value that is not JSON stops the app with an error naming the variable; without the opt-in they are ignored")
    func urlKeyedNotJSON() async throws {
        let broken = try await Self.launch(
            environment: ["TONEARM_URL_STUBS": "1", "https://api.example.com/me": "{name: Ada}"], requests: [])
        #expect(broken.status == 3)
        #expect(broken.errors.contains("environment variable https://api.example.com/me: TONEARM_URL_STUBS is set, so its value must be a JSON body: line 1, column 2"))

        let ignored = try await Self.launch(environment: ["https://api.example.com/me": "{name: Ada}"], requests: [])
        #expect(ignored.status == 0, "without TONEARM_URL_STUBS nothing is installed: \(ignored.errors)")
    }

    @Test("A per-test stub folder of bodies answers what its files name; the rest reaches the network with TONEARM_MISSES=network")
    func perTestStubFolder() async throws {
        let root = try TemporaryFolder()
        let test = root.file("testSignIn")
        try FileManager.default.createDirectory(at: test, withIntermediateDirectories: true)
        try Data(#"{"token":"abc"}"#.utf8).write(to: test.appendingPathComponent("POST-v1-session.json"))
        try Data(#"[{"id":1}]"#.utf8).write(to: test.appendingPathComponent("items.json"))
        let server = try Self.liveServer()
        defer { server.stop() }
        let requests = [
            "POST \(server.baseURL)/v1/session", "GET \(server.baseURL)/api/items?page=2", "GET \(server.baseURL)/v1/profile",
        ]
        let run = try await Self.launch(environment: ["TONEARM_RULES": test.path, "TONEARM_MISSES": "network"], requests: requests)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.answers == [
            Answer(request: requests[0], status: 200, contentType: "application/json", body: #"{"token":"abc"}"#),
            Answer(request: requests[1], status: 200, contentType: "application/json", body: #"[{"id":1}]"#),
            Answer(request: requests[2], status: 200, contentType: "text/plain", body: "live /v1/profile"),
        ])
        #expect(server.received.map(\.path) == ["/v1/profile"], "stubbed requests never reached the network")

        let strict = try await Self.launch(environment: ["TONEARM_RULES": test.path], requests: [requests[2]])
        #expect(strict.answers == [Answer(request: requests[2], error: URLError.Code.resourceUnavailable.rawValue)])
    }

    @Test("-TONEARM_STUBS json as a launch argument wins over the environment's TONEARM_STUBS")
    func launchArgumentPairsWin() async throws {
        let run = try await Self.launch(
            arguments: ["-TONEARM_STUBS", #"[{"url": "https://api.example.com/flags", "body": "from the argument"}]"#],
            environment: ["TONEARM_STUBS": #"[{"url": "https://api.example.com/flags", "body": "from the environment"}]"#],
            requests: ["GET https://api.example.com/flags"])
        #expect(run.answers.map(\.body) == ["from the argument"])
    }
}
