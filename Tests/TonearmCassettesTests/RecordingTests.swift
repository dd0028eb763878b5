import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes

@Suite("Recording to disk")
struct RecordingTests {
    @Test("64 tasks recording at once lose no track, and the saved cassette holds them all")
    func concurrentRecording() async throws {
        let folder = try TemporaryFolder()
        let recorder = CassetteRecorder(url: folder.file("run.json"))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for call in 0..<10 {
                        recorder.record(Track(request: Request(url: "https://h.example/\(task)/\(call)"), response: Response(status: 200)))
                    }
                }
            }
        }
        try recorder.save()
        let saved = try NativeFormat.decode(Array(try Data(contentsOf: folder.file("run.json"))))
        #expect(saved.entries.count == 640)
        #expect(Set(saved.tracks.map(\.request.url)).count == 640)
    }

    @Test("concurrent saves never leave a truncated or stale file behind")
    func concurrentSaves() async throws {
        let folder = try TemporaryFolder()
        let recorder = CassetteRecorder(url: folder.file("run.json"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    recorder.record(Track(request: Request(url: "https://h.example/\(task)"), response: Response()))
                    try recorder.save()
                }
            }
            try await group.waitForAll()
        }
        let saved = try NativeFormat.decode(Array(try Data(contentsOf: folder.file("run.json"))))
        #expect(saved.entries.count == 16)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("an atomic write replaces the file whole and leaves no temporary file")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("c.json")
        try AtomicFile.write(Array("old".utf8), to: target)
        try AtomicFile.write(Array("new content".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new content")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["c.json"])
        let missingFolder = folder.file("no/such/dir/c.json")
        #expect(throws: CassetteError.self) { try AtomicFile.write([1], to: missingFolder) }
    }

    @Test("default redaction hides credentials in requests and responses before writing")
    func defaultRedaction() throws {
        let folder = try TemporaryFolder()
        let recorder = CassetteRecorder(url: folder.file("r.json"))
        recorder.record(Track(
            request: Request(url: "https://h.example/me", headers: [HTTPField("Authorization", "Bearer s3cr3t"), HTTPField("cookie", "sid=abc"), HTTPField("Accept", "*/*")]),
            response: Response(headers: [HTTPField("Set-Cookie", "sid=def")])))
        try recorder.save()
        let text = try String(contentsOf: folder.file("r.json"), encoding: .utf8)
        #expect(!text.contains("s3cr3t") && !text.contains("sid=abc") && !text.contains("sid=def"))
        #expect(text.contains(#"["Authorization", "<redacted>"]"#))
        #expect(text.contains(#"["Accept", "*/*"]"#))
    }

    @Test("query parameters and JSON fields are redacted, and matching still works on them")
    func redactionKeepsMatching() throws {
        let redaction = Redaction(
            queryParameters: ["api_key"], jsonFields: [try JSONPointer("/password"), try JSONPointer("/users/*/token")])
        let live = Request(
            method: "POST", url: "https://h.example/login?api_key=K123&lang=en",
            headers: [HTTPField("Content-Type", "application/json")],
            body: #"{"user":"ziggy","password":"stardust","users":[{"token":"t1"},{"token":"t2"}]}"#)
        let recorded = redaction.redact(Track(request: live, response: Response(status: 204)))
        #expect(recorded.request.url == "https://h.example/login?api_key=%3Credacted%3E&lang=en")
        let body = String(decoding: recorded.request.body, as: UTF8.self)
        #expect(body == #"{"user":"ziggy","password":"<redacted>","users":[{"token":"<redacted>"},{"token":"<redacted>"}]}"#)

        let engine = ReplayEngine(tracks: [recorded])
        #expect(engine.match(redaction.redact(live)).hit?.trackPosition == 0)
        var otherSecret = live
        otherSecret.url = "https://h.example/login?api_key=OTHER&lang=en"
        #expect(engine.match(redaction.redact(otherSecret)).hit?.trackPosition == 0)
        #expect(engine.match(live).hit == nil)  // unredacted live requests do not match redacted tracks
    }
}
