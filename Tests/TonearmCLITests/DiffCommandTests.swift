import Foundation
import Testing
import TonearmTestSupport

/// `tonearm diff` as reviewers and git run it: exit statuses like diff(1), two revisions of a file, and
/// git's textconv and external diff drivers, in real temporary repositories.
@Suite("tonearm diff", .enabled(if: TonearmExecutable.url != nil, TonearmExecutable.missingMessage))
struct DiffCommandTests {
    /// A native cassette of two tracks: the items (whose third price is `price`) and a health check,
    /// in the order given, with a `Date` and a request id that differ between recordings.
    static func cassette(price: String, date: String = "Mon, 01 Jan 2024 09:00:00 GMT", healthFirst: Bool = false, extra: String = "") -> String {
        let items = """
            {"recordedAt": "2024-01-01T09:00:00.000Z", "request": {"method": "GET", "url": "https://shop.example.com/items?page=1&size=4"},
             "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Date", "\(date)"], ["X-Request-Id", "\(date.prefix(3))"]],
                          "body": {"json": {"items": [{"id": 1, "price": 10}, {"id": 2, "price": 11}, {"id": 3, "price": 12}, {"id": 4, "price": \(price)}]}}}}
            """
        let health = """
            {"request": {"method": "GET", "url": "https://shop.example.com/health"}, "response": {"status": 200, "headers": [["Date", "\(date)"]\(extra)]}}
            """
        return #"{"formatVersion": 1, "tracks": ["# + (healthFirst ? [health, items] : [items, health]).joined(separator: ",\n") + "]}\n"
    }

    static let laterDate = "Tue, 02 Jan 2024 10:00:00 GMT"

    /// Writes the two recordings and returns their paths.
    static func files(_ old: String, _ new: String, in folder: TemporaryFolder, extension suffix: String = "json") throws -> (old: String, new: String) {
        try folder.write("old.\(suffix)", old)
        try folder.write("new.\(suffix)", new)
        return (folder.file("old.\(suffix)").path, folder.file("new.\(suffix)").path)
    }

    @Test("Exit 0 when only volatile parts and order changed, 1 with the one pointer when a price changed, never colours into a pipe")
    func exitStatuses() async throws {
        let folder = try TemporaryFolder()
        let same = try Self.files(Self.cassette(price: "12.5"), Self.cassette(price: "12.50", date: Self.laterDate, healthFirst: true), in: folder)
        let quiet = try await TonearmExecutable.run(["diff", same.old, same.new])
        #expect(quiet.status == 0, "\(quiet.output)\(quiet.errors)")
        #expect(quiet.output.hasSuffix("no differences (2 unchanged)\n"), "\(quiet.output)")

        try folder.write("new.json", Self.cassette(price: "13", date: Self.laterDate))
        let changed = try await TonearmExecutable.run(["diff", same.old, same.new])
        #expect(changed.status == 1, "\(changed.errors)")
        #expect(changed.output.contains("changed GET https://shop.example.com/items?page=1&size=4\n    body /items/3/price: 12.5 → 13\n"), "\(changed.output)")
        #expect(changed.output.contains(": 1 changed, 0 added, 0 removed, 1 unchanged\n"), "\(changed.output)")
        #expect(!changed.output.contains("\u{1B}"), "no colours when standard output is not a terminal")
    }

    @Test("Exit 2 for trouble: a file that does not load (named with line and column), a missing file, bad arguments")
    func trouble() async throws {
        let folder = try TemporaryFolder()
        let paths = try Self.files(Self.cassette(price: "1"), "{\"formatVersion\": 1, \"tracks\": [\n  {\"request\": }\n]}\n", in: folder)
        let broken = try await TonearmExecutable.run(["diff", paths.old, paths.new])
        #expect(broken.status == 2)
        #expect(broken.errors.contains("new.json:2:15: "), "\(broken.errors)")
        let missing = try await TonearmExecutable.run(["diff", paths.old, folder.file("absent.json").path])
        #expect(missing.status == 2, "\(missing.errors)")
        #expect(missing.errors.contains("absent.json"), "\(missing.errors)")
        for arguments in [["diff", paths.old], ["diff", paths.old, paths.old, "--format", "yaml"], ["diff", "--textconv", "--git", paths.old], ["diff", paths.old, paths.old, "--ignore-field", "$..id"]] {
            let run = try await TonearmExecutable.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.errors)")
            #expect(run.errors.hasPrefix("error: "), "\(arguments): \(run.errors)")
        }
    }

    @Test("--ignore-header and --ignore-field leave a changing header and JSON field out; --keep-header compares a volatile one")
    func ignoring() async throws {
        let folder = try TemporaryFolder()
        let paths = try Self.files(
            Self.cassette(price: "12.5", extra: #", ["X-Trace", "a"]"#),
            Self.cassette(price: "13", date: Self.laterDate, extra: #", ["X-Trace", "b"]"#), in: folder)
        let all = try await TonearmExecutable.run(["diff", paths.old, paths.new])
        #expect(all.status == 1 && all.output.contains(#"header x-trace: "a" → "b""#), "\(all.output)")
        let ignored = try await TonearmExecutable.run(["diff", paths.old, paths.new, "--ignore-header", "x-trace", "--ignore-field", "$.items[3].price"])
        #expect(ignored.status == 0, "\(ignored.output)\(ignored.errors)")
        let pointer = try await TonearmExecutable.run(["diff", paths.old, paths.new, "--ignore-header", "X-Trace", "--ignore-field", "/items/*/price"])
        #expect(pointer.status == 0, "\(pointer.output)\(pointer.errors)")
        let kept = try await TonearmExecutable.run(["diff", paths.old, paths.new, "--ignore-header", "X-Trace", "--ignore-field", "/items/3/price", "--keep-header", "Date"])
        #expect(kept.status == 1 && kept.output.contains("header date: "), "\(kept.output)")
    }

    @Test("--format markdown and --format json")
    func formats() async throws {
        let folder = try TemporaryFolder()
        let paths = try Self.files(Self.cassette(price: "12.5"), Self.cassette(price: "13"), in: folder)
        let markdown = try await TonearmExecutable.run(["diff", paths.old, paths.new, "--format", "markdown"])
        #expect(markdown.status == 1)
        #expect(markdown.output.contains("| 1 | 0 | 0 | 1 | 0 (0) |"), "\(markdown.output)")
        #expect(markdown.output.contains("```text\nbody /items/3/price: 12.5 → 13\n```"), "\(markdown.output)")
        let json = try await TonearmExecutable.run(["diff", paths.old, paths.new, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.outputBytes)) as? [String: Any])
        #expect((object["summary"] as? [String: Int])?["changed"] == 1)
        #expect(object["old"] as? String == paths.old)
    }

    @Test("--textconv prints the same text whatever the track and member order, dates and ids")
    func textconv() async throws {
        let folder = try TemporaryFolder()
        let paths = try Self.files(Self.cassette(price: "12.5"), Self.cassette(price: "12.50", date: Self.laterDate, healthFirst: true), in: folder)
        let first = try await TonearmExecutable.run(["diff", "--textconv", paths.old])
        let second = try await TonearmExecutable.run(["diff", "--textconv", paths.new])
        #expect(first.status == 0 && second.status == 0, "\(first.errors)\(second.errors)")
        #expect(first.output == second.output)
        #expect(first.output.contains("track GET https://shop.example.com/items?page=1&size=4\n"), "\(first.output)")
        #expect(first.output.contains("  body /items/3/price: 12.5\n"), "\(first.output)")
    }

    @Test("--git compares two revisions of a file, of a WireMock folder and of a rule file with its body file; an unknown revision is a clear error", .enabled(if: Git.isAvailable))
    func gitRevisions() async throws {
        let repository = try Git.repository()
        try repository.folder.write("shop.json", Self.cassette(price: "12.5"))
        try FileManager.default.createDirectory(at: repository.folder.file("wiremock/mappings"), withIntermediateDirectories: true)
        try repository.folder.write("wiremock/mappings/item.json", #"{"request": {"method": "GET", "url": "/items/3"}, "response": {"jsonBody": {"price": 12.5}}}"#)
        try FileManager.default.createDirectory(at: repository.folder.file("stubs/responses"), withIntermediateDirectories: true)
        try repository.folder.write("stubs/shop.rules.yaml", "rules:\n  - {name: item, method: GET, path: '^/items/3$', file: responses/item.json}\n")
        try repository.folder.write("stubs/responses/item.json", #"{"price": 12.5}"#)
        try await repository.commit("first")
        try repository.folder.write("shop.json", Self.cassette(price: "13", date: Self.laterDate, healthFirst: true))
        try repository.folder.write("wiremock/mappings/item.json", #"{"request": {"method": "GET", "url": "/items/3"}, "response": {"jsonBody": {"price": 13}}}"#)
        try repository.folder.write("stubs/responses/item.json", #"{"price": 13}"#)
        try await repository.commit("second")

        let absolute = try await TonearmExecutable.run(["diff", "--git", "HEAD~1", "HEAD", repository.folder.file("shop.json").path])
        #expect(absolute.status == 1, "\(absolute.errors)")
        #expect(absolute.output.contains("    body /items/3/price: 12.5 → 13\n"), "\(absolute.output)")
        #expect(absolute.output.contains("HEAD~1:\(repository.folder.file("shop.json").path) → HEAD:"), "\(absolute.output)")

        let relative = try await Git.tonearm(["diff", "--git", "HEAD~1", "HEAD", "wiremock"], in: repository.folder.url)
        #expect(relative.status == 1, "\(relative.errors)")
        #expect(relative.output.contains("changed GET /items/3\n    body /price: 12.5 → 13\n"), "\(relative.output)")

        let rules = try await Git.tonearm(["diff", "--git", "HEAD~1", "HEAD", "stubs/shop.rules.yaml"], in: repository.folder.url)
        #expect(rules.status == 1, "\(rules.errors)")
        #expect(rules.output.contains("    body /price: 12.5 → 13\n"), "the body file beside the rule file is read at each revision: \(rules.output)")

        let unknown = try await TonearmExecutable.run(["diff", "--git", "no-such-revision", "HEAD", repository.folder.file("shop.json").path])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("no-such-revision: not a revision git knows"), "\(unknown.errors)")
        let missingPath = try await TonearmExecutable.run(["diff", "--git", "HEAD~1", "HEAD", repository.folder.file("absent.json").path])
        #expect(missingPath.status == 2)
        #expect(missingPath.errors.contains("HEAD~1:"), "\(missingPath.errors)")
    }

    @Test("As git's textconv the diff shows only the changed price; as git's external diff it prints the report", .enabled(if: Git.isAvailable))
    func gitDrivers() async throws {
        let repository = try Git.repository()
        let tonearm = try #require(TonearmExecutable.url).path
        try repository.folder.write(".gitattributes", "*.json diff=tonearm\n")
        try repository.folder.write("shop.json", Self.cassette(price: "12.5"))
        try await repository.commit("first")
        try repository.folder.write("shop.json", Self.cassette(price: "13", date: Self.laterDate, healthFirst: true))

        let textconv = try await repository.git(["-c", "diff.tonearm.textconv=\(tonearm) diff --textconv", "diff", "--no-color", "shop.json"])
        #expect(textconv.status == 0, "\(textconv.errors)")
        let changedLines = textconv.output.split(separator: "\n").filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }
        #expect(changedLines == ["-  body /items/3/price: 12.5", "+  body /items/3/price: 13"], "\(textconv.output)")

        let external = try await repository.git(["-c", "diff.tonearm.command=\(tonearm) diff --git-external", "diff", "shop.json"])
        #expect(external.status == 0, "\(external.errors)")
        #expect(external.output.contains("    body /items/3/price: 12.5 → 13\n"), "\(external.output)")
        #expect(external.output.contains("a/shop.json → b/shop.json: 1 changed"), "\(external.output)")

        try repository.folder.write("added.json", Self.cassette(price: "1"))
        _ = try await repository.git(["add", "added.json"])
        let added = try await repository.git(["-c", "diff.tonearm.command=\(tonearm) diff --git-external", "diff", "--cached", "added.json"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains(": 0 changed, 2 added, 0 removed, 0 unchanged"), "a new file is compared with nothing: \(added.output)")
    }
}

/// A throwaway git repository, for the `--git` and driver tests.
enum Git {
    static let isAvailable = (try? ProcessRun.runBlocking("/usr/bin/env", ["git", "--version"], environment: nil).status) == 0

    struct Repository {
        let folder: TemporaryFolder

        func git(_ arguments: [String]) async throws -> ProcessRun {
            // A fixed identity and no user or system configuration, so the machine's settings play no part.
            var environment = ProcessInfo.processInfo.environment
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            environment["HOME"] = folder.url.path
            environment["GIT_AUTHOR_NAME"] = "test"
            environment["GIT_AUTHOR_EMAIL"] = "test@example.com"
            environment["GIT_COMMITTER_NAME"] = "test"
            environment["GIT_COMMITTER_EMAIL"] = "test@example.com"
            return try await ProcessRun.run("/usr/bin/env", ["git"] + arguments, environment: environment, currentDirectory: folder.url)
        }

        func commit(_ message: String) async throws {
            _ = try await git(["add", "-A"])
            let run = try await git(["commit", "-q", "-m", message])
            #expect(run.status == 0, "\(run.errors)")
        }
    }

    static func repository() throws -> Repository {
        let folder = try TemporaryFolder()
        let run = try ProcessRun.runBlocking("/usr/bin/env", ["git", "init", "-q", folder.url.path], environment: nil)
        #expect(run.status == 0, "\(run.errors)")
        return Repository(folder: folder)
    }

    /// The built `tonearm` run in `folder`.
    static func tonearm(_ arguments: [String], in folder: URL) async throws -> ProcessRun {
        let url = try #require(TonearmExecutable.url)
        return try await ProcessRun.run(url.path, arguments, currentDirectory: folder)
    }
}
