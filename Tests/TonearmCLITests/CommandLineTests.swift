import Foundation
import Testing
import TonearmTestSupport

/// The `tonearm` command run as users run it: the built executable, real files, real exit statuses.
@Suite("tonearm command line", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct CommandLineTests {
    @Test("key prints the canonical form and the key docs/key-spec.md gives")
    func keyMatchesTheSpec() async throws {
        // Vector 2 of docs/key-spec.md, given as a JSON document on standard input.
        let run = try await TonearmExecutable.run(["key", "--json"], input: #"{"method":"get","url":"HTTPS://Example.COM"}"#)
        #expect(run.status == 0)
        let output = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(output?["key"] as? String == "5b86494ce2279acb")
        #expect(output?["canonical"] as? String == "method 3 GET\nurl 20 https://example.com/\nquery 0 \nbody:raw 0 \n")
    }

    @Test("key from flags: JSON bodies are canonical and ignored parameters drop out")
    func keyFromFlags() async throws {
        let run = try await TonearmExecutable.run([
            "key", "--method", "POST", "--url", "https://api.example.com/s?b=2&_=123&a=1", "--ignore-query", "_",
            "--header", "Content-Type: application/json", "--body", #"{ "z": 1.0, "a": [true] }"#,
        ])
        #expect(run.status == 0)
        #expect(run.output.contains("query 7 a=1&b=2"))
        #expect(run.output.contains(#"body:json 18 {"a":[true],"z":1}"#))
    }

    @Test("--version prints the release number the packaged archive and the Python wheel are named after")
    func version() async throws {
        let run = try await TonearmExecutable.run(["--version"])
        #expect(run.status == 0, "\(run.errors)")
        let source = try String(contentsOf: packageRoot.appending(path: "Sources/TonearmCLI/TonearmVersion.swift"), encoding: .utf8)
        let version = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(version)")
        #expect(source.contains("let tonearmVersion = \"\(version)\""), "scripts/test-python-package.sh reads the version from this line")
    }

    @Test("demo answers every request right and explains its misses")
    func demo() async throws {
        let run = try await TonearmExecutable.run(["demo", "--tracks", "300", "--requests", "600"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("missed as they should"))
        #expect(run.output.contains("closest tracks"))
        #expect(run.output.contains("from recorded track #1"), "the bundled petstore cassette answers")
    }

    @Test(
        "convert, then explain: a hit exits 0, a near-miss exits 1 with the difference",
        .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func convertAndExplain() async throws {
        let folder = try TemporaryFolder()
        let native = folder.file("fulfill.json").path
        let convert = try await TonearmExecutable.run(["convert", try Conformance.url("har/playwright-har-fulfill.har").path, native])
        #expect(convert.status == 0, "\(convert.errors)")
        let hit = try await TonearmExecutable.run(["explain", "--cassette", native, "--url", "http://no.playwright/"])
        #expect(hit.status == 0, "\(hit.output)\(hit.errors)")
        let miss = try await TonearmExecutable.run(["explain", "--cassette", native, "--url", "http://no.playwright/?extra=1"])
        #expect(miss.status == 1)
        #expect(miss.output.contains(#"query parameter "extra" added"#))
    }

    @Test("explain --body-file and key --body-file read a binary body from a file, '-' or /dev/stdin alike")
    func binaryBodyFromStandardInput() async throws {
        let folder = try TemporaryFolder()
        // Not UTF-8 (a PNG signature and bytes that are no character), so no text flag could give it.
        let body = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xC3, 0x28])
        let bodyFile = folder.file("body.bin")
        try body.write(to: bodyFile)
        let cassette = folder.file("upload.json")
        try Data("""
            {
              "formatVersion": 1,
              "tracks": [
                {
                  "request": {"method": "PUT", "url": "https://cdn.example.com/a.png", "body": {"base64": "\(body.base64EncodedString())"}},
                  "response": {"status": 201}
                }
              ]
            }
            """.utf8).write(to: cassette)
        let request = ["--method", "PUT", "--url", "https://cdn.example.com/a.png"]

        let fromFile = try await TonearmExecutable.run(["key"] + request + ["--body-file", bodyFile.path])
        #expect(fromFile.status == 0, "\(fromFile.errors)")
        for stdinPath in ["-", "/dev/stdin"] {
            let key = try await TonearmExecutable.run(["key"] + request + ["--body-file", stdinPath], input: body)
            #expect(key.status == 0, "\(stdinPath): \(key.errors)")
            #expect(key.output == fromFile.output, "\(stdinPath) gives the key the file gives")
            let hit = try await TonearmExecutable.run(
                ["explain", "--cassette", cassette.path] + request + ["--body-file", stdinPath], input: body)
            #expect(hit.status == 0, "\(stdinPath): \(hit.output)\(hit.errors)")
            #expect(hit.output.contains("track #0"))
        }
        var changed = body
        changed[changed.count - 1] = 0x29
        let miss = try await TonearmExecutable.run(["explain", "--cassette", cassette.path] + request + ["--body-file", "-"], input: changed)
        #expect(miss.status == 1, "one byte off misses: \(miss.output)")
    }

    @Test("explain --curl reads a pasted curl command: a hit exits 0, a near-miss 1, a bad command names the problem")
    func explainCurlCommand() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("items.json")
        try Data("""
            {
              "formatVersion": 1,
              "tracks": [
                {
                  "request": {"method": "POST", "url": "https://api.example.com/v1/items", "headers": [["Content-Type", "application/json"]], "body": {"text": "{\\"name\\":\\"x\\"}"}},
                  "response": {"status": 201}
                }
              ]
            }
            """.utf8).write(to: cassette)
        let hit = try await TonearmExecutable.run([
            "explain", "--cassette", cassette.path,
            "--curl", #"curl 'https://api.example.com/v1/items' -H 'content-type: application/json' --data-raw '{"name":"x"}' --compressed"#,
        ])
        #expect(hit.status == 0, "\(hit.output)\(hit.errors)")
        #expect(hit.output.contains("track #0"))
        let miss = try await TonearmExecutable.run([
            "explain", "--cassette", cassette.path, "--curl", #"curl https://api.example.com/v1/items --json '{"name":"y"}'"#,
        ])
        #expect(miss.status == 1, "\(miss.output)\(miss.errors)")
        let bad = try await TonearmExecutable.run(["explain", "--cassette", cassette.path, "--curl", "curl -F a=b https://api.example.com/"])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("line 1, column 6"), "\(bad.errors)")
        #expect(bad.errors.contains("multipart"), "\(bad.errors)")
    }

    @Test("lint reports an unredacted secret and exits 1")
    func lintFindsSecrets() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("secret.json")
        try Data("""
            {
              "formatVersion": 1,
              "tracks": [
                {
                  "request": {"method": "GET", "url": "https://api.example.com/me", "headers": [["Authorization", "Bearer live-token-123"]]},
                  "response": {"status": 200}
                }
              ]
            }
            """.utf8).write(to: cassette)
        let run = try await TonearmExecutable.run(["lint", cassette.path])
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.output.lowercased().contains("authorization"))
    }

    @Test("bench --json gives every strategy a p50 and a ratio to the linear baseline")
    func benchJSON() async throws {
        let run = try await TonearmExecutable.run(["bench", "--tracks", "500", "--requests", "500", "--misses", "5", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let text = run.output
        for strategy in ["repeat", "fifo", "unique-play", "strict-order", "chain"] {
            #expect(text.contains("\"\(strategy)\""), "\(strategy) missing from \(text.prefix(400))")
        }
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil, "output is JSON")
    }

    @Test("bench --rules times each rule count against the every-rule baseline, which agrees, and says when it skips it")
    func benchRules() async throws {
        let run = try await TonearmExecutable.run(
            ["bench", "--rules", "20,60", "--requests", "300", "--baseline-sample", "50", "--naive-limit", "30"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.hasPrefix("  20 ") || $0.hasPrefix("  60 ") }
        #expect(rows.count == 2, "one line per size in \(run.output)")
        #expect(rows.first?.contains("50 of 50 agree") == true, "\(rows)")
        #expect(rows.last?.contains("skipped") == true, "\(rows)")
        #expect(lines.contains { $0.contains("naive skipped at 60: more than 30 rules") }, "\(run.output)")
        #expect(lines.contains { $0.contains("chose the same rule for every compared request") }, "\(run.output)")
    }

    @Test("bench --rules --json reports each size's engine and baseline medians and their agreement")
    func benchRulesJSON() async throws {
        let run = try await TonearmExecutable.run(["bench", "--rules", "40", "--requests", "200", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let rows = object?["rows"] as? [[String: Any]]
        #expect(rows?.count == 1, "\(run.output.prefix(400))")
        let row = rows?.first
        #expect(row?["ruleCount"] as? Int == 40)
        #expect(row?["disagreements"] as? Int == 0)
        #expect(row?["compared"] as? Int == 200)
        #expect(((row?["engine"] as? [String: Any])?["p50Nanoseconds"] as? Double ?? 0) > 0)
        #expect(((row?["naive"] as? [String: Any])?["p50Nanoseconds"] as? Double ?? 0) > 0)
    }

    @Test("bench --rules refuses a count that is not a positive number")
    func benchRulesRefusesBadCounts() async throws {
        let run = try await TonearmExecutable.run(["bench", "--rules", "100,ten"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--rules takes rule counts"), "\(run.errors)")
    }
}

/// The `tonearm` executable SwiftPM built next to this test bundle, run from the package root.
enum TonearmExecutable {
    static let url: URL? = builtExecutable("tonearm")

    static let missingMessage: Comment = "the tonearm executable was not found next to the test bundle"

    static func run(_ arguments: [String], input: String? = nil) async throws -> ProcessRun {
        try await run(arguments, input: input.map { Data($0.utf8) })
    }

    /// Runs the executable with `input` on its standard input; the demo finds Examples/ in the working
    /// directory, hence the package root.
    static func run(_ arguments: [String], input: Data?) async throws -> ProcessRun {
        guard let url else { throw CocoaError(.fileNoSuchFile) }
        return try await ProcessRun.run(url.path, arguments, environment: nil, input: input, currentDirectory: packageRoot)
    }
}
