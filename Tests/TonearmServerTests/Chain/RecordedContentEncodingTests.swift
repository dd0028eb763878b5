import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

/// Issue 20 §4: DVR and Vinyl cassettes store the body URLSession had already decoded but keep
/// `Content-Encoding: gzip`. Replayed as recorded, every client fails to inflate plain JSON.
@Suite("Recorded Content-Encoding replayed faithfully")
struct RecordedContentEncodingTests {
    static let json = #"{"id":1,"name":"Ada"}"#

    /// A DVR cassette whose decoded JSON body is still marked gzip, with the compressed length.
    static func decodedDVRCassette(in folder: TemporaryFolder) throws -> URL {
        try folder.write("user.json", """
            {"name": "user", "interactions": [{"recorded_at": 1705664469,
              "request": {"method": "GET", "url": "http://api.example.com/user"},
              "response": {"status": 200, "url": "http://api.example.com/user", "headers": {"Content-Type": "application/json",
                "Content-Encoding": "gzip", "Content-Length": "33"}, "body": \(json)}}]}
            """)
        return folder.file("user.json")
    }

    @Test("tonearm serve answers a decoded body without its stale Content-Encoding: curl --compressed reads it", .enabled(if: curlPath != nil, "curl is not installed"))
    func curlCompressed() async throws {
        let curl = try #require(curlPath)
        let folder = try TemporaryFolder()
        let server = try await TonearmServer.start(quietConfiguration(cassette: try Self.decodedDVRCassette(in: folder), mode: .never))
        let url = server.baseURL(for: "http://api.example.com").absoluteString + "/user"
        let replayed = try await ProcessRun.run(curl, ["-s", "--compressed", "-D", "-", url])
        try await server.stop()
        #expect(replayed.output.hasSuffix("\r\n\r\n" + Self.json), "\(replayed.output)")
        #expect(!replayed.output.lowercased().contains("content-encoding"))
        #expect(replayed.output.lowercased().contains("content-length: \(Self.json.utf8.count)"))
    }

    @Test("URLSession replaying the same cassette gets the JSON and a matching Content-Length")
    func urlSession() async throws {
        let folder = try TemporaryFolder()
        let session = try TonearmSession.cassette(at: try Self.decodedDVRCassette(in: folder), options: CassetteOptions(record: .never), environment: [:])
        let (data, response) = try await session.urlSession.data(from: try #require(URL(string: "http://api.example.com/user")))
        try session.finish()
        #expect(data == Data(Self.json.utf8))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(http.value(forHTTPHeaderField: "Content-Length") == String(Self.json.utf8.count))
    }
}
