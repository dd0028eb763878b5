import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmServerTesting
import TonearmTestSupport
import TonearmURLSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tests that fail on purpose, to be attached to: run only by ``NetworkAttachmentTests``, which starts
/// this test bundle again with `TONEARM_ATTACHMENT_FIXTURES` set and `--attachments-path`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TONEARM_ATTACHMENT_FIXTURES"] != nil, "run by NetworkAttachmentTests"))
struct AttachmentFixtures {
    /// `url` fetched through `URLSession.tonearm`, answered by the test's stubs.
    private static func get(_ url: String) async throws {
        _ = try await URLSession.tonearm.data(from: try #require(URL(string: url)))
    }

    @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))))
    func stubMiss() async throws {
        _ = try await Self.get("https://api.example.com/me")
        _ = try? await Self.get("https://api.example.com/orders?page=2")
    }

    @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))))
    func expectationFails() async throws {
        _ = try await Self.get("https://api.example.com/me")
        Issue.record("the app showed the wrong name")
    }

    @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))), .networkAttachments(.always))
    func passesAlwaysAttached() async throws {
        _ = try await Self.get("https://api.example.com/me")
    }

    @Test(.stubs(.get("https://api.example.com/me", .json(#"{"name":"Ada"}"#))))
    func passesQuietly() async throws {
        _ = try await Self.get("https://api.example.com/me")
    }

    @Test(.server("profile", hosts: ["api.example.com"], record: .never))
    func serverMiss() async throws {
        let server = try #require(TonearmServer.current)
        let base = server.baseURL(for: "api.example.com").absoluteString
        _ = try await TestClient.send(base + "/v1/profile?id=1", headers: [("Authorization", "Bearer secret-token")])
        _ = try await TestClient.send(base + "/v1/profile?id=2")
    }
}

/// What a failing Tonearm-scoped test leaves in its report: `swift test --attachments-path` run on the
/// fixtures above (this bundle, started again), the files read back.
@Suite("TonearmTesting: the network in the test report")
struct NetworkAttachmentTests {
    /// Runs the fixtures with `environment` added: the folder of attachments (removed when dropped), the
    /// attachment files by name, and the run.
    private func runFixtures(_ environment: [String: String] = [:]) async throws -> (folder: TemporaryFolder, files: [String: URL], run: ProcessRun) {
        let folder = try TemporaryFolder()
        var inherited = ProcessInfo.processInfo.environment
        inherited["TONEARM_ATTACHMENTS"] = nil
        inherited["TONEARM_ATTACHMENT_FIXTURES"] = "1"
        inherited.merge(environment) { $1 }
        let run = try await ProcessRun.run(
            CommandLine.arguments[0],
            ["--testing-library", "swift-testing", "--filter", "AttachmentFixtures", "--attachments-path", folder.url.path],
            environment: inherited)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []
        return (folder, Dictionary(uniqueKeysWithValues: names.map { ($0, folder.file($0)) }), run)
    }

    @Test("A failing test attaches its misses (text and JSON) and its exchanges as HAR; a passing one attaches nothing unless asked")
    func failingTestsAttach() async throws {
        let (folder, files, run) = try await runFixtures()
        defer { withExtendedLifetime(folder) {} }
        #expect(run.status != 0, "the fixtures fail on purpose")
        #expect(Set(files.keys) == [
            "stubMiss misses.txt", "stubMiss misses.json", "stubMiss.har",
            "expectationFails.har",
            "passesAlwaysAttached.har",
            "serverMiss misses.txt", "serverMiss misses.json", "serverMiss.har",
        ], "\(files.keys.sorted())\n\(run.output.suffix(2000))")

        let text = try String(contentsOf: try #require(files["stubMiss misses.txt"]), encoding: .utf8)
        #expect(text.contains("GET https://api.example.com/orders?page=2"))
        #expect(text.contains("https://api.example.com/me"), "the nearest stub is named")
        let document = try JSONValue(parsing: Array(try Data(contentsOf: try #require(files["stubMiss misses.json"]))))
        guard case .array(let misses) = document, case .object(let miss)? = misses.first else { Issue.record("not a list of misses"); return }
        #expect(miss.first { $0.key == "url" }?.value == .string("https://api.example.com/orders?page=2"))
        #expect(miss.first { $0.key == "reasonCode" }?.value == .string("not-recorded"))
    }

    @Test("The HAR attached is one `tonearm convert` reads back: every exchange, misses as failed entries, secrets redacted",
          .enabled(if: builtExecutable("tonearm") != nil, "the tonearm executable was not found next to the test bundle"))
    func harReadsBack() async throws {
        let tonearm = try #require(builtExecutable("tonearm"))
        let (folder, files, _) = try await runFixtures()
        defer { withExtendedLifetime(folder) {} }
        let out = try TemporaryFolder()
        for (name, expected) in [("stubMiss.har", 2), ("serverMiss.har", 2), ("expectationFails.har", 1)] {
            let har = try #require(files[name], "\(name) missing: \(files.keys.sorted())")
            let native = out.file(name + ".json")
            let converted = try await ProcessRun.run(tonearm.path, ["convert", har.path, native.path])
            #expect(converted.status == 0, "\(converted.errors)")
            let tracks = try CassetteFile.load(native).cassette.tracks
            #expect(tracks.count == expected, "\(name)")
        }
        let server = try CassetteFile.load(try #require(files["serverMiss.har"])).cassette.tracks
        #expect(server.first?.request.url.hasSuffix("/v1/profile?id=1") == true)
        #expect(server.last?.response?.status == 404, "the miss is journaled with its 404")
        let raw = try String(contentsOf: try #require(files["serverMiss.har"]), encoding: .utf8)
        #expect(!raw.contains("secret-token"), "the Authorization header is redacted before it is written")
    }

    @Test("TONEARM_ATTACHMENTS=never attaches nothing; =always attaches for every Tonearm-scoped test; another value is an error naming it")
    func environmentOverrides() async throws {
        let never = try await runFixtures(["TONEARM_ATTACHMENTS": "never"])
        #expect(never.files.isEmpty, "\(never.files.keys.sorted())")
        let always = try await runFixtures(["TONEARM_ATTACHMENTS": "always"])
        #expect(always.files["passesQuietly.har"] != nil, "\(always.files.keys.sorted())")
        let wrong = try await runFixtures(["TONEARM_ATTACHMENTS": "sometimes"])
        let said = wrong.run.output + wrong.run.errors
        #expect(wrong.run.status != 0)
        #expect(said.contains("TONEARM_ATTACHMENTS") && said.contains("\"sometimes\" is not one of on-failure, always, never"), "\(said.suffix(1500))")
    }
}
