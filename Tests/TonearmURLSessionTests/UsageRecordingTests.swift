import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
import TonearmURLSession

/// What a URLSession test run leaves for `tonearm coverage`: each finished cassette session writes a
/// usage record when `TONEARM_USAGE_DIR` is set, and none otherwise.
@Suite struct UsageRecordingTests {
    private static func track(_ path: String) -> Track {
        Track(
            request: Request(method: "GET", url: "https://api.example.com\(path)"),
            response: Response(status: 200, headers: [HeaderField("Content-Type", "text/plain")], body: Array(path.utf8)))
    }

    @Test("a finished session records which of its cassette's tracks and its rule file's rules answered")
    func sessionRecord() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("Cassette.json")
        try CassetteFile.save(Cassette(tracks: [Self.track("/a"), Self.track("/b"), Self.track("/c")]), to: cassette, format: .native)
        try folder.write("rules.yaml", "rules:\n  - path: ^/ruled/[0-9]+$\n    status: 204\n  - path: ^/never$\n    status: 204\n")
        let usage = folder.file("usage")
        let session = try TonearmSession.fromEnvironment([
            "TONEARM_CASSETTE": cassette.path, "TONEARM_RECORD": "never", "TONEARM_RULES": folder.file("rules.yaml").path,
            "TONEARM_USAGE_DIR": usage.path,
        ])
        let urlSession = try #require(session).urlSession
        for path in ["/a", "/a", "/c", "/ruled/7"] {
            _ = try await urlSession.data(from: try #require(URL(string: "https://api.example.com\(path)")))
        }
        #expect(!FileManager.default.fileExists(atPath: usage.path), "nothing is written before the session finishes")
        try session?.finish()
        let run = try UsageRun.read(folder: usage)
        #expect(run.recordCount == 1)
        #expect(run.files[UsageSource.standardPath(cassette)] == FileUsage(path: UsageSource.standardPath(cassette), trackPlays: [2, 0, 1], rulePlays: []))
        let rules = UsageSource.standardPath(folder.file("rules.yaml"))
        #expect(run.files[rules] == FileUsage(path: rules, trackPlays: [], rulePlays: [1, 0]))
    }

    @Test("sessions finishing at once in one process each leave their record; merged, the answers add up")
    func concurrentSessions() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("Shared.json")
        try CassetteFile.save(Cassette(tracks: [Self.track("/a"), Self.track("/b")]), to: cassette, format: .native)
        let usage = folder.file("usage")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    let session = try TonearmSession.cassette(
                        at: cassette, options: .init(record: .never), environment: ["TONEARM_USAGE_DIR": usage.path])
                    _ = try await session.urlSession.data(from: try #require(URL(string: "https://api.example.com/\(worker % 2 == 0 ? "a" : "b")")))
                    try session.finish()
                }
            }
            try await group.waitForAll()
        }
        let run = try UsageRun.read(folder: usage)
        #expect(run.recordCount == 6)
        #expect(run.files[UsageSource.standardPath(cassette)] == FileUsage(path: UsageSource.standardPath(cassette), trackPlays: [3, 3], rulePlays: [], loads: 6))
    }

    @Test("without TONEARM_USAGE_DIR, and in all mode (nothing replayed), no record is written")
    func noRecord() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("C.json")
        try CassetteFile.save(Cassette(tracks: [Self.track("/a")]), to: cassette, format: .native)
        let plain = try TonearmSession.cassette(at: cassette, options: .init(record: .never), environment: [:])
        try plain.finish()
        let rerecording = try TonearmSession.cassette(
            at: cassette, options: .init(record: .all), environment: ["TONEARM_USAGE_DIR": folder.file("usage").path])
        try rerecording.finish()
        #expect(!FileManager.default.fileExists(atPath: folder.file("usage").path))
    }
}
