import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmTestSupport
@testable import TonearmURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Recordings keep compressed bodies as the server sent them; URLSession clients must still get the
/// decoded bytes, as they would from a live server.
@Suite("Content decoding")
struct ContentDecodingTests {
    @Test func gzipBodiesAreInflatedAndTheEncodingHeaderDropped() throws {
        let recorded = Response(
            status: 200,
            headers: [HeaderField("Content-Encoding", "gzip"), HeaderField("Content-Length", "55"), HeaderField("X-Kept", "1")],
            body: RecordReplayTests.gzippedJSON)
        let decoded = ContentDecoding.decoded(recorded)
        #expect(String(decoding: decoded.body, as: UTF8.self).hasPrefix(#"{"compressed":true,"padding":"xxxx"#))
        #expect(decoded.headers.first(named: "content-encoding") == nil)
        #expect(decoded.headers.first(named: "content-length") == String(decoded.body.count))
        #expect(decoded.headers.first(named: "x-kept") == "1")
    }

    @Test func deflateBodiesAreInflated() {
        // zlib.compress(b"deflated body, deflated body, deflated body")
        let zlibStream: [UInt8] = [
            0x78, 0x9C, 0x4B, 0x49, 0x4D, 0xCB, 0x49, 0x2C, 0x49, 0x4D, 0x51, 0x48, 0xCA, 0x4F, 0xA9, 0xD4, 0x51, 0x48,
            0xC1, 0xC3, 0x05, 0x00, 0x59, 0x5D, 0x0F, 0xAE,
        ]
        let decoded = ContentDecoding.decoded(
            Response(headers: [HeaderField("Content-Encoding", "deflate")], body: zlibStream))
        #expect(String(decoding: decoded.body, as: UTF8.self) == "deflated body, deflated body, deflated body")
    }

    @Test func corruptOrUnencodedBodiesAreLeftAsRecorded() {
        let corrupt = Response(headers: [HeaderField("Content-Encoding", "gzip")], body: Array(RecordReplayTests.gzippedJSON.prefix(20)))
        #expect(ContentDecoding.decoded(corrupt) == corrupt)
        let plain = Response(headers: [HeaderField("Content-Type", "text/plain")], body: "not compressed")
        #expect(ContentDecoding.decoded(plain) == plain)
        let brotli = Response(headers: [HeaderField("Content-Encoding", "br")], body: [1, 2, 3])
        #expect(ContentDecoding.decoded(brotli) == brotli, "only gzip and deflate are decoded")
    }

    @Test(.enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func aVcrpyGzipCassetteReplaysDecodedThroughURLSession() async throws {
        let imported = try CassetteFile.load(try Conformance.url("vcr/vcrpy-gzip_requests.yaml"))
        let track = try #require(imported.cassette.tracks.first)
        #expect(track.response?.headers.first(named: "content-encoding") == "gzip", "the cassette keeps what the server sent")
        let folder = try TemporaryFolder()
        let cassette = folder.file("gzip.json")
        try CassetteFile.save(imported.cassette, to: cassette, format: .native)
        let session = try TonearmSession.cassette(at: cassette, options: .init(record: .never), environment: [:])
        var request = URLRequest(url: try #require(URL(string: track.request.url)))
        request.httpMethod = track.request.method
        for field in track.request.headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        let result = try? await session.urlSession.data(for: request)
        for miss in session.takeMisses() { Issue.record("\(miss.report)") }
        try session.finish()
        let (data, response) = try #require(result)
        let recordedResponse = try #require(track.response)
        let expected = try #require(ContentDecoding.inflate(recordedResponse.body))
        #expect(Array(data) == expected)
        #expect(!expected.starts(with: [0x1F, 0x8B]))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") == nil)
    }
}
