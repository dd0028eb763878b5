import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
import TonearmURLSession

/// Records against a real server on 127.0.0.1, stops it, and replays: what the client sees must not change.
@Suite struct RecordReplayTests {
    /// Routes of the test server: JSON, binary, echo of posted bodies, a redirect, headers.
    static func route(_ request: HTTPTestServer.ReceivedRequest) -> HTTPTestServer.Reply {
        switch (request.method, request.path) {
        case ("GET", "/users"):
            return .init(
                headers: [("Content-Type", "application/json"), ("X-Request-Id", "r-17"), ("Cache-Control", "no-store")],
                text: #"{"users":[{"id":1,"name":"Ada"}],"query":"\#(request.target)"}"#)
        case ("GET", "/binary"):
            return .init(headers: [("Content-Type", "application/octet-stream")], body: Array(0...255))
        case ("POST", "/search"), ("PUT", "/upload"):
            return .init(
                status: 201, headers: [("Content-Type", "application/json")],
                text: #"{"received":\#(request.body.count),"echo":\#(String(decoding: request.body, as: UTF8.self))}"#)
        case ("GET", "/old"):
            return .init(status: 302, headers: [("Location", "/new")])
        case ("GET", "/new"):
            return .init(headers: [("Content-Type", "text/plain")], text: "moved here")
        default:
            return .init(status: 404, text: "no route")
        }
    }

    /// The requests both phases send.
    static func requests(base: String) throws -> [URLRequest] {
        var search = URLRequest(url: try .literal(base + "/search?lang=en&q=tonearm"))
        search.httpMethod = "POST"
        search.setValue("application/json", forHTTPHeaderField: "Content-Type")
        search.httpBody = Data(#"{"filter":{"tags":["a","b"]},"limit":10}"#.utf8)
        var streamed = URLRequest(url: try .literal(base + "/search?q=stream"))
        streamed.httpMethod = "POST"
        streamed.setValue("application/json", forHTTPHeaderField: "Content-Type")
        streamed.httpBodyStream = InputStream(data: Data(#"{"streamed":true}"#.utf8))
        return [
            URLRequest(url: try .literal(base + "/users?page=2&sort=name")),
            URLRequest(url: try .literal(base + "/binary")),
            search,
            streamed,
            URLRequest(url: try .literal(base + "/old")),
        ]
    }

    @Test func replayGivesIdenticalStatusHeadersAndBodiesAfterTheServerStops() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("exchange.json")
        let server = try HTTPTestServer(handler: Self.route)
        let base = server.baseURL

        let recording = try TonearmSession.cassette(at: cassette, options: .init(record: .all), environment: [:])
        var live: [Observed] = []
        for request in try Self.requests(base: base) {
            let (data, response) = try await recording.urlSession.data(for: request)
            live.append(Observed(data, response))
        }
        var upload = URLRequest(url: try .literal(base + "/upload"))
        upload.httpMethod = "PUT"
        upload.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (uploadData, uploadResponse) = try await recording.urlSession.upload(for: upload, from: Data(#"{"file":"a.txt"}"#.utf8))
        live.append(Observed(uploadData, uploadResponse))
        try recording.finish()
        server.stop()

        // The server really answered: the redirect was followed and bodies reached it.
        #expect(live[4].text == "moved here")
        #expect(live[2].text.contains(#""received":40"#))
        #expect(live[3].text.contains(#""streamed":true"#))
        #expect(live[5].text.contains(#""file":"a.txt""#), "upload(for:from:) bodies reach the network")
        let servedBeforeReplay = server.received.count
        #expect(servedBeforeReplay == 7, "5 requests, one redirect hop, one upload")

        let replaying = try TonearmSession.cassette(at: cassette, options: .init(record: .never), environment: [:])
        var replayed: [Observed] = []
        for request in try Self.requests(base: base) {
            let (data, response) = try await replaying.urlSession.data(for: request)
            replayed.append(Observed(data, response))
        }
        let (replayedUpload, replayedUploadResponse) = try await replaying.urlSession.upload(
            for: upload, from: Data(#"{"file":"a.txt"}"#.utf8))
        replayed.append(Observed(replayedUpload, replayedUploadResponse))

        #expect(replayed == live)
        #expect(replaying.misses.isEmpty)
        #expect(replaying.exchanges.allSatisfy { $0.source == .replayed })
        try replaying.finish()
    }

    @Test func permutedQueriesReplay() async throws {
        let (folder, base) = try await Self.recordedCassette()
        let replaying = try TonearmSession.cassette(
            at: folder.file("exchange.json"), options: .init(record: .never), environment: [:])
        let (data, response) = try await replaying.urlSession.data(from: try .literal(base + "/users?sort=name&page=2"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("Ada"))
        try replaying.finish()
    }

    @Test func jsonPostsWithReorderedMembersReplay() async throws {
        let (folder, base) = try await Self.recordedCassette()
        let replaying = try TonearmSession.cassette(
            at: folder.file("exchange.json"), options: .init(record: .never), environment: [:])
        var search = URLRequest(url: try .literal(base + "/search?q=tonearm&lang=en"))
        search.httpMethod = "POST"
        search.setValue("application/json", forHTTPHeaderField: "Content-Type")
        search.httpBody = Data(#"{ "limit": 10.0, "filter": { "tags": ["a", "b"] } }"#.utf8)
        let (_, response) = try await replaying.urlSession.data(for: search)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        try replaying.finish()
    }

    @Test func aDifferentUploadBodyMissesBecauseBodiesTakePartInMatching() async throws {
        let (folder, base) = try await Self.recordedCassette()
        let replaying = try TonearmSession.cassette(
            at: folder.file("exchange.json"), options: .init(record: .never), environment: [:])
        var upload = URLRequest(url: try .literal(base + "/search?lang=en&q=tonearm"))
        upload.httpMethod = "POST"
        upload.setValue("application/json", forHTTPHeaderField: "Content-Type")
        await #expect(throws: URLError.self) {
            _ = try await replaying.urlSession.upload(for: upload, from: Data(#"{"filter":{"tags":["c"]},"limit":10}"#.utf8))
        }
        let miss = try #require(replaying.takeMisses().first)
        #expect(miss.report.nearest.first?.differences.isEmpty == false)
        try replaying.finish()
    }

    @Test func missingModeReplaysHitsAndAppendsMisses() async throws {
        let (folder, base) = try await Self.recordedCassette()
        let server = try HTTPTestServer(handler: Self.route)
        let cassette = folder.file("exchange.json")
        let before = try CassetteFile.load(cassette).cassette.entries.count
        let session = try TonearmSession.cassette(at: cassette, options: .init(record: .missing), environment: [:])
        // A recorded request replays (its port is the old, stopped server's), a new one hits the live server.
        let (old, _) = try await session.urlSession.data(from: try .literal(base + "/new"))
        let (fresh, _) = try await session.urlSession.data(from: try .literal(server.baseURL + "/new"))
        try session.finish()
        server.stop()
        #expect(String(decoding: old, as: UTF8.self) == "moved here")
        #expect(String(decoding: fresh, as: UTF8.self) == "moved here")
        #expect(session.exchanges.map(\.source) == [.replayed, .network])
        #expect(try CassetteFile.load(cassette).cassette.entries.count == before + 1)
    }

    @Test func passthroughLogsEveryExchangeAndRecordsNothing() async throws {
        let folder = try TemporaryFolder()
        let server = try HTTPTestServer(handler: Self.route)
        defer { server.stop() }
        let cassette = folder.file("untouched.json")
        let session = try TonearmSession.cassette(at: cassette, options: .init(record: .passthrough), environment: [:])
        _ = try await session.urlSession.data(from: try .literal(server.baseURL + "/users"))
        _ = try await session.urlSession.data(from: try .literal(server.baseURL + "/missing"))
        try session.finish()
        #expect(session.exchanges.map(\.description) == [
            "GET \(server.baseURL)/users → 200 (network)",
            "GET \(server.baseURL)/missing → 404 (network)",
        ])
        #expect(!FileManager.default.fileExists(atPath: cassette.path))
    }

    @Test func recordingRedactsSecretsBeforeWriting() async throws {
        let folder = try TemporaryFolder()
        let server = try HTTPTestServer(handler: Self.route)
        let cassette = folder.file("secrets.json")
        let session = try TonearmSession.cassette(at: cassette, options: .init(record: .all), environment: [:])
        var request = URLRequest(url: try .literal(server.baseURL + "/users"))
        request.setValue("Bearer s3cr3t-token", forHTTPHeaderField: "Authorization")
        _ = try await session.urlSession.data(for: request)
        try session.finish()
        server.stop()
        let written = try String(contentsOf: cassette, encoding: .utf8)
        #expect(!written.contains("s3cr3t-token"))
        #expect(written.contains("<redacted>"))
    }

    /// `{"compressed":true,"padding":"xxx…"}` gzip-compressed (Python's gzip, mtime 0).
    static let gzippedJSON: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xAB, 0x56, 0x4A, 0xCE, 0xCF, 0x2D, 0x28, 0x4A,
        0x2D, 0x2E, 0x4E, 0x4D, 0x51, 0xB2, 0x2A, 0x29, 0x2A, 0x4D, 0xD5, 0x51, 0x2A, 0x48, 0x4C, 0x49, 0xC9, 0xCC,
        0x4B, 0x57, 0xB2, 0x52, 0xAA, 0xA0, 0x10, 0x28, 0xD5, 0x02, 0x00, 0xF9, 0x40, 0x82, 0x91, 0x60, 0x00, 0x00,
        0x00,
    ]

    @Test func aGzipResponseIsRecordedDecodedWithoutItsContentEncoding() async throws {
        let folder = try TemporaryFolder()
        let server = try HTTPTestServer { _ in
            .init(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: Self.gzippedJSON)
        }
        let cassette = folder.file("gzip.json")
        let recording = try TonearmSession.cassette(at: cassette, options: .init(record: .all), environment: [:])
        let (live, _) = try await recording.urlSession.data(from: try .literal(server.baseURL + "/zipped"))
        try recording.finish()
        server.stop()
        let track = try #require(try CassetteFile.load(cassette).cassette.entries.first?.track)
        let headers = track.response?.headers ?? []
        #expect(!headers.contains { $0.name.lowercased() == "content-encoding" }, "the recorded body is decoded")
        #expect(headers.first { $0.name.lowercased() == "content-length" }?.value == String(live.count))
        let replaying = try TonearmSession.cassette(at: cassette, options: .init(record: .never), environment: [:])
        let (replayed, _) = try await replaying.urlSession.data(from: try .literal(server.baseURL + "/zipped"))
        try replaying.finish()
        #expect(replayed == live)
        #expect(String(decoding: replayed, as: UTF8.self).hasPrefix(#"{"compressed":true"#))
    }

    /// A cassette recorded from the server (now stopped) and the server's old base URL.
    static func recordedCassette() async throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let server = try HTTPTestServer(handler: route)
        let session = try TonearmSession.cassette(
            at: folder.file("exchange.json"), options: .init(record: .all), environment: [:])
        for request in try requests(base: server.baseURL) { _ = try await session.urlSession.data(for: request) }
        try session.finish()
        server.stop()
        return (folder, server.baseURL)
    }

    @Test("all mode: a session that recorded nothing leaves the cassette as it was (never an empty one)")
    func allModeWithNothingRecordedKeepsTheCassette() throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("kept.json")
        let track = Track(request: Request(url: "https://api.example.com/a"), response: Response(body: "a"))
        try CassetteFile.save(Cassette(tracks: [track]), to: cassette, format: .native)
        let session = try TonearmSession.cassette(at: cassette, options: .init(record: .all), environment: [:])
        try session.finish()
        #expect(try CassetteFile.load(cassette).cassette.tracks == [track])
        let fresh = folder.file("never-written.json")
        try TonearmSession.cassette(at: fresh, options: .init(record: .all), environment: [:]).finish()
        #expect(!FileManager.default.fileExists(atPath: fresh.path))
    }
}
