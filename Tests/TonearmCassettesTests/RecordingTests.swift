import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

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
            request: Request(url: "https://h.example/me", headers: [HeaderField("Authorization", "Bearer s3cr3t"), HeaderField("cookie", "sid=abc"), HeaderField("Accept", "*/*")]),
            response: Response(headers: [HeaderField("Set-Cookie", "sid=def")])))
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
            headers: [HeaderField("Content-Type", "application/json")],
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

/// Issue 8 §5: redaction, the linter and matching read queries and JSON media types by one definition.
@Suite("Redaction agrees with matching")
struct RedactionAgreementTests {
    static let contentTypes = [
        "application/json", "Application/JSON; charset=utf-8", " application/json ", "application/vnd.api+json",
        "application/problem+json; charset=utf-8", "text/json", "application/json-seq", "application/x-ndjson",
        "text/plain", "application/x-www-form-urlencoded", "",
    ]

    @Test("a body redaction treats as JSON is exactly one matching compares as JSON", arguments: contentTypes)
    func jsonMediaTypes(_ contentType: String) {
        // Matching compares JSON bodies by value, so re-ordered members match exactly when the body is JSON.
        let recorded = Request(method: "POST", url: "https://h.example/", headers: [HeaderField("Content-Type", contentType)], body: #"{"a":1,"secret":"s"}"#)
        var reordered = recorded
        reordered.body = Array(#"{"secret":"s","a":1}"#.utf8)
        let matchedAsJSON = ReplayEngine(tracks: [Track(request: recorded, response: Response())]).match(reordered).hit != nil

        let redaction = Redaction(jsonFields: [JSONPointer(tokens: ["secret"])])
        let redactedAsJSON = redaction.redact(recorded).body != recorded.body
        #expect(redactedAsJSON == matchedAsJSON, "\(contentType)")

        let findings = SecretScanner(redaction: .default).scan([Track(request: recorded, response: Response())])
        #expect(!findings.isEmpty == matchedAsJSON, "\(contentType)")
    }

    @Test("with the matching configuration's extra JSON media types, redaction and matching still agree", arguments: contentTypes)
    func additionalJSONMediaTypes(_ contentType: String) {
        let extra: Set<String> = ["text/json", "application/x-ndjson"]
        let recorded = Request(method: "POST", url: "https://h.example/", headers: [HeaderField("Content-Type", contentType)], body: #"{"a":1,"secret":"s"}"#)
        var reordered = recorded
        reordered.body = Array(#"{"secret":"s","a":1}"#.utf8)
        let configuration = MatchingConfiguration(additionalJSONMediaTypes: extra)
        let engine = ReplayEngine(tracks: [Track(request: recorded, response: Response())], configuration: configuration)
        let matchedAsJSON = engine.match(reordered).hit != nil
        let redaction = Redaction(jsonFields: [JSONPointer(tokens: ["secret"])], additionalJSONMediaTypes: extra)
        #expect((redaction.redact(recorded).body != recorded.body) == matchedAsJSON, "\(contentType)")
        #expect(!SecretScanner(redaction: redaction).scan([Track(request: recorded, response: Response())]).isEmpty == matchedAsJSON)
        if contentType == "text/json" { #expect(matchedAsJSON) }
    }

    @Test("query parameter names are compared by the core's form rules, in redaction, matching and the linter")
    func queryNames() throws {
        let redaction = Redaction(queryParameters: ["api key"])
        for spelling in ["api+key", "api%20key", "api%20k%65y"] {
            let live = Request(url: "https://h.example/a?\(spelling)=S3CRET&b=%7E")
            let redacted = redaction.redact(live)
            #expect(redacted.url == "https://h.example/a?\(spelling)=%3Credacted%3E&b=%7E", "\(spelling)")
            let findings = SecretScanner(redaction: redaction).scan([Track(request: live, response: Response())])
            #expect(findings.map(\.message) == ["query parameter api key is not redacted"], "\(spelling)")
            #expect(SecretScanner(redaction: redaction).scan([Track(request: redacted, response: Response())]).isEmpty)
        }
        // A recorded "api+key" and a live "api%20key" are the same parameter to matching, and both redact alike.
        let recorded = redaction.redact(Request(url: "https://h.example/a?api+key=one"))
        let engine = ReplayEngine(tracks: [Track(request: recorded, response: Response())])
        #expect(engine.match(redaction.redact(Request(url: "https://h.example/a?api%20key=two"))).hit != nil)
        // A placeholder holding "+" or "%" is written literally, so it reads back as itself.
        let literal = Redaction(queryParameters: ["k"], placeholder: "a+b%20")
        #expect(literal.redact(Request(url: "https://h.example/?k=v")).url == "https://h.example/?k=a%2Bb%2520")
    }

    @Test("the linter decodes parameter names before comparing them with credential names")
    func lintEncodedNames() {
        let track = Track(request: Request(url: "https://h.example/?api%5Fkey=abc&plain=1"), response: Response())
        #expect(SecretScanner(redaction: .default).scan([track]).map(\.message) == ["query parameter api_key is not redacted"])
    }
}
