import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServerTestSupport
import TonearmTestSupport

/// Parallel `tonearm serve` workers (as pytest-xdist runs them) each leave a usage record; `tonearm
/// coverage` merges them and is a CI gate; `tonearm prune` removes only what no worker used.
@Suite("Usage records from parallel servers", .enabled(if: builtExecutable("tonearm") != nil, "the tonearm executable was not found next to the test bundle"))
struct UsageRecordProcessTests {
    private static func track(_ path: String) -> Track {
        Track(request: Request(method: "GET", url: "http://api.example.com\(path)"), response: Response(status: 200, body: Array(path.utf8)))
    }

    private static func tonearm(_ arguments: [String]) async throws -> ProcessRun {
        let executable = try #require(builtExecutable("tonearm"))
        return try await ProcessRun.run(executable.path, arguments, environment: nil, input: nil, currentDirectory: nil)
    }

    @Test("two workers' records merge; coverage fails the gate on the unused track and the unloaded file; prune removes just that track")
    func workersCoverageAndPrune() async throws {
        let folder = try TemporaryFolder()
        let cassettes = folder.file("cassettes"), usage = folder.file("usage")
        try FileManager.default.createDirectory(at: cassettes, withIntermediateDirectories: true)
        let shared = cassettes.appendingPathComponent("shared.json")
        try CassetteFile.save(Cassette(tracks: [Self.track("/a"), Self.track("/b"), Self.track("/unused")]), to: shared, format: .native)
        try CassetteFile.save(Cassette(tracks: [Self.track("/old")]), to: cassettes.appendingPathComponent("deleted-test.json"), format: .native)
        let rules = cassettes.appendingPathComponent("rules.yaml")
        try Data("rules:\n  - path: ^/items/[0-9]+$\n    status: 200\n".utf8).write(to: rules)

        let servers = try await ServeProcess.startInParallel(
            2, ["--cassette", shared.path, "--rules", rules.path, "--upstream", "http://api.example.com", "--usage-dir", usage.path])
        #expect((try await TestClient.send(servers[0].url + "/a")).status == 200)
        #expect((try await TestClient.send(servers[1].url + "/b")).status == 200)
        #expect((try await TestClient.send(servers[1].url + "/items/9")).status == 200)
        for server in servers { #expect(try await server.stop().status == 0) }

        let gate = try await Self.tonearm(["coverage", "--usage", usage.path, cassettes.path, "--fail-on-unused"])
        #expect(gate.status == 1, "\(gate.output)\(gate.errors)")
        #expect(gate.output.contains("deleted-test.json: never loaded by the run"), "\(gate.output)")
        #expect(gate.output.contains("shared.json: 1 of 3 track(s) never replayed\n  track #2 GET http://api.example.com/unused → 200"), "\(gate.output)")
        #expect(gate.output.contains("2 usage record(s)"))
        let json = try await Self.tonearm(["coverage", "--usage", usage.path, cassettes.path, "--format", "json"])
        #expect(json.status == 0, "without --fail-on-unused the report is not a failure")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.outputBytes)) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        let ruleFile = try #require(files.first { ($0["path"] as? String)?.hasSuffix("rules.yaml") == true })
        #expect(ruleFile["loads"] as? Int == 2)
        #expect((ruleFile["unusedRules"] as? [Any])?.isEmpty == true)

        let before = try Data(contentsOf: shared)
        let dryRun = try await Self.tonearm(["prune", "--usage", usage.path, cassettes.path])
        #expect(dryRun.status == 0)
        #expect(dryRun.output.contains("shared.json: would remove track(s) #2"), "\(dryRun.output)")
        #expect(try Data(contentsOf: shared) == before, "a dry run changes nothing")
        let pruned = try await Self.tonearm(["prune", "--usage", usage.path, cassettes.path, "--write"])
        #expect(pruned.status == 0, "\(pruned.errors)")
        #expect(try NativeFormat.decode(Array(Data(contentsOf: shared))).tracks.map(\.request.url) == ["http://api.example.com/a", "http://api.example.com/b"])
        #expect(FileManager.default.fileExists(atPath: cassettes.appendingPathComponent("deleted-test.json").path), "not deleted unless asked")
    }

    @Test("a truncated record stops coverage and prune with the file named, and prune changes nothing")
    func truncatedRecord() async throws {
        let folder = try TemporaryFolder()
        let usage = folder.file("usage")
        try FileManager.default.createDirectory(at: usage, withIntermediateDirectories: true)
        try Data(#"{"tonearmUsage": 1, "files": [{"path": "/x.json", "tra"#.utf8).write(to: usage.appendingPathComponent("w-1-a.tonearm-usage.json"))
        try CassetteFile.save(Cassette(tracks: [Self.track("/a")]), to: folder.file("c.json"), format: .native)
        let before = try Data(contentsOf: folder.file("c.json"))
        for command in ["coverage", "prune"] {
            let run = try await Self.tonearm([command, "--usage", usage.path, folder.file("c.json").path] + (command == "prune" ? ["--write", "--delete-unloaded"] : []))
            #expect(run.status == 2, "\(command)")
            #expect(run.errors.contains("w-1-a.tonearm-usage.json:1:"), "\(run.errors)")
        }
        #expect(try Data(contentsOf: folder.file("c.json")) == before)
    }
}
