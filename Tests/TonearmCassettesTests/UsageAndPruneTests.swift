import Foundation
import PropertyBased
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport

@Suite("Usage records, coverage and prune")
struct UsageAndPruneTests {
    private static func track(_ path: String, status: Int = 200) -> Track {
        Track(request: Request(method: "GET", url: "https://api.example.com\(path)"), response: Response(status: status))
    }

    /// A native cassette of `paths` written to `name` in `folder`.
    private static func nativeCassette(_ paths: [String], _ name: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.file(name)
        try CassetteFile.save(Cassette(tracks: paths.map { track($0) }), to: url, format: .native)
        return url
    }

    /// The usage of a file whose tracks answered `plays` times each.
    private static func usage(_ url: URL, plays: [Int], rules: [Int] = []) -> FileUsage {
        FileUsage(path: UsageSource.standardPath(url), trackPlays: plays, rulePlays: rules)
    }

    @Test("a record reads back as written; only tracks that answered are listed on disk")
    func recordRoundTrip() async throws {
        await propertyCheck(count: 100, input: Gen.int(in: 0...5).array(of: 0...30), Gen.int(in: 0...3).array(of: 0...5)) { tracks, rules in
            let record = UsageRecord(writer: "swift", files: [FileUsage(path: "/c/a b.json", trackPlays: tracks, rulePlays: rules, loads: 2)])
            let decoded = try UsageRecord.decode(record.encoded(), file: "r.json")
            #expect(decoded == record)
        }
        let text = String(decoding: UsageRecord(writer: "swift", files: [FileUsage(path: "/c.json", trackPlays: [0, 3, 0], rulePlays: [])]).encoded(), as: UTF8.self)
        #expect(text.contains("\"trackPlays\": [\n        [1, 3]\n      ]"), "\(text)")
    }

    @Test("an engine's counts become each source file's, by the positions the loader gave it")
    func recordFromEngine() throws {
        let engine = try ReplayEngine(
            tracks: [Self.track("/a"), Self.track("/b"), Self.track("/c")],
            rules: [Rule(name: "r", pattern: "/r$", target: .path, response: Response())])
        for path in ["/a", "/a", "/c", "/r"] { _ = engine.match(Request(method: "GET", url: "https://api.example.com\(path)")) }
        let cassette = URL(fileURLWithPath: "/tmp/x/cassette.json"), rules = URL(fileURLWithPath: "/tmp/x/rules.yaml")
        let record = UsageRecord(
            writer: "swift",
            sources: [UsageSource(url: cassette, tracks: 0..<2, rules: 0..<0), UsageSource(url: rules, tracks: 2..<3, rules: 0..<1)],
            usage: engine.usage())
        #expect(record.files == [
            FileUsage(path: "/tmp/x/cassette.json", trackPlays: [2, 0], rulePlays: []),
            FileUsage(path: "/tmp/x/rules.yaml", trackPlays: [1], rulePlays: [1]),
        ])
    }

    @Test("a truncated or foreign record is an error naming the file, line and what was expected")
    func badRecords() throws {
        let folder = try TemporaryFolder()
        let good = UsageRecord(writer: "swift", files: [FileUsage(path: "/c.json", trackPlays: [1], rulePlays: [])]).encoded()
        try Data(good.prefix(good.count / 2)).write(to: folder.file("a.tonearm-usage.json"))
        #expect {
            _ = try UsageRun.read(folder: folder.url)
        } throws: { error in
            let text = "\(error)"
            return text.contains("a.tonearm-usage.json:") && text.contains("expected")
        }
        #expect {
            _ = try UsageRecord.decode(Array(#"{"tonearmUsage": 1, "files": [{"path": "/c", "tracks": 2, "rules": 0, "trackPlays": [[5, 1]]}]}"#.utf8), file: "r.json")
        } throws: { error in "\(error)".contains("r.json:1:") && "\(error)".contains("a position below 2") }
        #expect {
            _ = try UsageRecord.decode(Array(#"{"formatVersion": 1, "tracks": []}"#.utf8), file: "cassette.json")
        } throws: { error in "\(error)".contains("a Tonearm usage record") }
    }

    @Test("records of parallel writers into one folder merge: answers add up, loads count, a changed file is set apart")
    func parallelWritersMerge() throws {
        let folder = try TemporaryFolder()
        let shared = "/repo/cassettes/shared.json"
        // Eight writers at once (test processes, pytest workers), each its own file in the folder.
        let written = RacingThreads.run(8) { worker in
            let plays = (0..<4).map { $0 == worker % 4 ? 1 : 0 }
            let record = UsageRecord(writer: "worker", files: [
                FileUsage(path: shared, trackPlays: plays, rulePlays: []),
                FileUsage(path: "/repo/cassettes/changing.json", trackPlays: Array(repeating: 0, count: worker == 0 ? 2 : 3), rulePlays: []),
            ])
            return (try? record.write(intoFolder: folder.url)) != nil
        }
        #expect(written == Array(repeating: true, count: 8))
        let run = try UsageRun.read(folder: folder.url)
        #expect(run.recordCount == 8)
        #expect(run.files[shared] == FileUsage(path: shared, trackPlays: [2, 2, 2, 2], rulePlays: [], loads: 8))
        #expect(run.files["/repo/cassettes/changing.json"] == nil)
        #expect(run.changedDuringRun["/repo/cassettes/changing.json"]?.map(\.trackPlays.count).sorted() == [2, 3])
        #expect(run.changedDuringRun["/repo/cassettes/changing.json"]?.reduce(0) { $0 + $1.loads } == 8)
    }

    @Test("coverage: a file never loaded, a track never replayed, a file changed since the run; non-cassettes left out")
    func coverage() throws {
        let folder = try TemporaryFolder()
        let used = try Self.nativeCassette(["/a", "/b", "/c"], "used.json", in: folder)
        let unloaded = try Self.nativeCassette(["/old"], "deleted-test.json", in: folder)
        let changed = try Self.nativeCassette(["/x", "/y"], "changed.json", in: folder)
        try folder.write("body.json", #"{"id": 1}"#)
        let run = UsageRun(records: [UsageRecord(writer: "swift", files: [
            Self.usage(used, plays: [1, 0, 4]), Self.usage(changed, plays: [1]),
        ])])
        let report = try CoverageReport(run: run, cassettes: [folder.url])
        #expect(report.files.map(\.path) == [changed, unloaded, used].map(UsageSource.standardPath))
        let byName = Dictionary(uniqueKeysWithValues: report.files.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0) })
        #expect(byName["deleted-test.json"]?.loaded == false)
        #expect(byName["used.json"]?.unusedTracks.map(\.position) == [1])
        #expect(byName["used.json"]?.unusedTracks.first?.summary == "GET https://api.example.com/b → 200")
        #expect(byName["changed.json"]?.changed?.contains("loaded with 1 tracks and 0 rules, it has 2 and 0 now") == true)
        #expect(report.notCassettes == [UsageSource.standardPath(folder.file("body.json"))])
        #expect(report.hasUnused)
        let text = report.text(relativeTo: UsageSource.standardPath(folder.url))
        #expect(text.contains("deleted-test.json: never loaded by the run"))
        #expect(text.contains("used.json: 1 of 3 track(s) never replayed\n  track #1 GET https://api.example.com/b → 200"))
        #expect(text.hasSuffix("3 cassette file(s), 1 usage record(s): 1 never loaded, 1 track(s) and 0 rule(s) never used in 1 file(s)\n"))
        let json = try JSONSerialization.jsonObject(with: Data(report.json())) as? [String: Any]
        #expect(json?["unused"] as? Bool == true)
    }

    @Test("a symbolic link back to a folder above is walked once, not forever")
    func linkLoop() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("a"), withIntermediateDirectories: true)
        let cassette = try Self.nativeCassette(["/x"], "a/c.json", in: folder)
        try FileManager.default.createSymbolicLink(at: folder.file("a/loop"), withDestinationURL: folder.url)
        let report = try CoverageReport(run: UsageRun(records: []), cassettes: [folder.url])
        #expect(report.files.map(\.path) == [UsageSource.standardPath(cassette)])
    }

    @Test("a loaded cassette that no longer parses is an error naming it")
    func coverageOfBrokenFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("broken.json", #"{"formatVersion": 1, "tracks": [{"request": "#)
        let run = UsageRun(records: [UsageRecord(writer: "swift", files: [Self.usage(folder.file("broken.json"), plays: [1])])])
        #expect {
            _ = try CoverageReport(run: run, cassettes: [folder.url])
        } throws: { error in "\(error)".contains("broken.json:1:") }
    }

    /// Prunes `text` (a file named `name` whose tracks answered `plays` times) and returns the new text.
    private static func pruned(_ text: String, name: String, plays: [Int], rules: [Int] = []) throws -> String {
        let folder = try TemporaryFolder()
        try folder.write(name, text)
        let run = UsageRun(records: [UsageRecord(writer: "swift", files: [Self.usage(folder.file(name), plays: plays, rules: rules)])])
        let plan = try PrunePlan(report: CoverageReport(run: run, cassettes: [folder.url]), deletingUnloadedFiles: false)
        #expect(plan.skipped.isEmpty, "\(plan.skipped)")
        #expect(try String(contentsOf: folder.file(name), encoding: .utf8) == text, "making the plan changes nothing")
        try plan.apply()
        return try String(contentsOf: folder.file(name), encoding: .utf8)
    }

    @Test("prune keeps a native cassette's layout, and the order and bytes of the tracks that stay")
    func pruneNative() throws {
        let folder = try TemporaryFolder()
        let url = try Self.nativeCassette(["/a", "/b", "/c", "/d"], "c.json", in: folder)
        let original = try String(contentsOf: url, encoding: .utf8)
        let after = try Self.pruned(original, name: "c.json", plays: [0, 2, 0, 1])
        let expected = try Self.nativeCassette(["/b", "/d"], "expected.json", in: folder)
        #expect(after == (try String(contentsOf: expected, encoding: .utf8)))
        // Every track unused: an empty list, still a cassette.
        let emptied = try Self.pruned(original, name: "c.json", plays: [0, 0, 0, 0])
        #expect(try NativeFormat.decode(Array(emptied.utf8)).entries.isEmpty)
        #expect(emptied.contains("\"tracks\": []"))
    }

    @Test("prune edits HAR, vcrpy YAML, Ruby VCR YAML, DVR, Vinyl and Hoverfly files in place")
    func pruneOtherFormats() throws {
        let har = """
            {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
              {"request": {"method": "GET", "url": "https://h.example/a", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": "A"}}},
              {"request": {"method": "GET", "url": "https://h.example/b", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": "B"}}}
            ], "comment": "kept"}}
            """
        #expect(try Self.pruned(har, name: "s.har", plays: [0, 1]) == """
            {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": [
              {"request": {"method": "GET", "url": "https://h.example/b", "headers": []}, "response": {"status": 200, "headers": [], "content": {"text": "B"}}}
            ], "comment": "kept"}}
            """)
        let vcrpy = """
            interactions:
            - request:
                body: null
                headers: {}
                method: GET
                uri: https://h.example/a
              response:
                body:
                  string: |-
                    first
                    - not an item
                headers: {}
                status: {code: 200, message: OK}
            - request:
                body: null
                headers: {}
                method: GET
                uri: https://h.example/b
              response:
                body: {string: B}
                headers: {}
                status: {code: 200, message: OK}
            version: 1

            """
        let prunedVCR = try Self.pruned(vcrpy, name: "t.yaml", plays: [3, 0])
        #expect(prunedVCR.hasPrefix("interactions:\n- request:\n    body: null"))
        #expect(prunedVCR.contains("- not an item") && !prunedVCR.contains("/b") && prunedVCR.hasSuffix("version: 1\n"))
        #expect(try Self.pruned(vcrpy, name: "t.yaml", plays: [0, 0]) == "interactions: []\nversion: 1\n")
        let ruby = """
            ---
            http_interactions:
            - request:
                method: get
                uri: https://h.example/a
                body: {encoding: UTF-8, string: ''}
                headers: {}
              response:
                status: {code: 200, message: OK}
                headers: {}
                body: {encoding: UTF-8, string: A}
              recorded_at: Tue, 01 Oct 2024 10:00:00 GMT
            - request:
                method: get
                uri: https://h.example/b
                body: {encoding: UTF-8, string: ''}
                headers: {}
              response:
                status: {code: 200, message: OK}
                headers: {}
                body: {encoding: UTF-8, string: B}
              recorded_at: Tue, 01 Oct 2024 10:00:00 GMT
            recorded_with: VCR 6.2.0

            """
        let prunedRuby = try Self.pruned(ruby, name: "r.yml", plays: [0, 1])
        #expect(!prunedRuby.contains("/a") && prunedRuby.contains("/b") && prunedRuby.hasSuffix("recorded_with: VCR 6.2.0\n"))
        let dvr = #"{"name": "d", "interactions": [{"request": {"method": "GET", "url": "https://h.example/a"}, "response": {"status": 200}, "recorded_at": 1}, {"request": {"method": "GET", "url": "https://h.example/b"}, "response": {"status": 200}, "recorded_at": 1}]}"#
        #expect(try Self.pruned(dvr, name: "d.json", plays: [1, 0])
            == #"{"name": "d", "interactions": [{"request": {"method": "GET", "url": "https://h.example/a"}, "response": {"status": 200}, "recorded_at": 1}]}"#)
        let vinyl = #"[{"request": {"method": "GET", "url": "https://h.example/a"}, "response": {"status": 200}}, {"request": {"method": "GET", "url": "https://h.example/b"}, "response": {"status": 200}}]"#
        #expect(try Self.pruned(vinyl, name: "v.json", plays: [0, 1])
            == #"[{"request": {"method": "GET", "url": "https://h.example/b"}, "response": {"status": 200}}]"#)
        let hoverfly = #"{"data": {"pairs": [{"request": {"method": [{"matcher": "exact", "value": "GET"}], "destination": [{"matcher": "exact", "value": "h.example"}], "path": [{"matcher": "exact", "value": "/a"}]}, "response": {"status": 200, "body": "A"}}, {"request": {"method": [{"matcher": "exact", "value": "GET"}], "destination": [{"matcher": "exact", "value": "h.example"}], "path": [{"matcher": "exact", "value": "/b"}]}, "response": {"status": 200, "body": "B"}}]}, "meta": {"schemaVersion": "v5"}}"#
        // Hoverfly's matchers load as rules.
        let prunedHoverfly = try Self.pruned(hoverfly, name: "h.json", plays: [], rules: [1, 0])
        #expect(prunedHoverfly.contains("\"/a\"") && !prunedHoverfly.contains("\"/b\"") && prunedHoverfly.hasSuffix(#"}]}, "meta": {"schemaVersion": "v5"}}"#), "\(prunedHoverfly)")
    }

    @Test("prune removes rules that never answered from a rule file")
    func pruneRules() throws {
        let rules = """
            rules:
              - name: users
                path: ^/users$
                status: 200
              - name: orders
                path: ^/orders$
                status: 200

            """
        let after = try Self.pruned(rules, name: "rules.yaml", plays: [], rules: [0, 2])
        #expect(after == "rules:\n  - name: orders\n    path: ^/orders$\n    status: 200\n")
    }

    @Test("a dry run writes nothing; a plan with one unreadable file fails whole, so no file changes")
    func pruneAllOrNothing() throws {
        let folder = try TemporaryFolder()
        let first = try Self.nativeCassette(["/a", "/b"], "a.json", in: folder)
        try folder.write("z.json", #"{"formatVersion": 1, "tracks": [{"request": "#)
        let before = try Data(contentsOf: first)
        let run = UsageRun(records: [UsageRecord(writer: "swift", files: [
            Self.usage(first, plays: [1, 0]), Self.usage(folder.file("z.json"), plays: [1]),
        ])])
        #expect {
            _ = try PrunePlan(report: CoverageReport(run: run, cassettes: [folder.url]), deletingUnloadedFiles: true)
        } throws: { error in "\(error)".contains("z.json") }
        #expect(try Data(contentsOf: first) == before)
    }

    @Test("files never loaded are deleted only when asked; files prune cannot edit are named with the reason")
    func pruneUnloadedAndSkipped() throws {
        let folder = try TemporaryFolder()
        let used = try Self.nativeCassette(["/a"], "used.json", in: folder)
        let unloaded = try Self.nativeCassette(["/old"], "old.json", in: folder)
        try FileManager.default.createDirectory(at: folder.file("wm/mappings"), withIntermediateDirectories: true)
        try folder.write("wm/mappings/m.json", #"{"request": {"method": "GET", "url": "/x"}, "response": {"status": 200}}"#)
        let run = UsageRun(records: [UsageRecord(writer: "swift", files: [
            Self.usage(used, plays: [1]), Self.usage(folder.file("wm"), plays: [0]),
        ])])
        let report = try CoverageReport(run: run, cassettes: [folder.url])
        let keeping = try PrunePlan(report: report, deletingUnloadedFiles: false)
        #expect(keeping.changes.isEmpty)
        #expect(keeping.skipped.map(\.path) == [UsageSource.standardPath(folder.file("wm"))])
        #expect(keeping.skipped.first?.reason.contains("does not edit wiremock files") == true)
        let deleting = try PrunePlan(report: report, deletingUnloadedFiles: true)
        #expect(deleting.changes.map(\.path) == [UsageSource.standardPath(unloaded)])
        try deleting.apply()
        #expect(!FileManager.default.fileExists(atPath: unloaded.path))
        #expect(FileManager.default.fileExists(atPath: used.path))
    }
}
