import Testing
import Tonearm
@testable import TonearmCassettes

/// A replay engine loaded from a file keeps decoded tracks, never the file's text: once loading
/// returns, nothing may reference the bytes read from the file. A reference kept by a track (a body
/// left as a slice of the text) or by the engine would keep a served cassette's whole file resident for
/// the server's life, on top of its tracks.
///
/// The probe is copy-on-write: mutating an array whose buffer someone else also references copies it
/// to a new address, while a buffer referenced only by the caller is written in place.
@Suite("Loading lets go of the file's bytes")
struct LoadedFileBytesTests {
    /// Native JSON with every body storage (text, JSON left unparsed while reading, base64) and headers.
    static let native = #"""
        {"formatVersion": 1, "name": "bytes", "tracks": [
          {"request": {"method": "GET", "url": "https://a.example/text", "headers": [["Accept", "application/json"]]},
           "response": {"status": 200, "headers": [["Content-Type", "text/plain"]], "body": {"text": "hello, \"world\""}}},
          {"request": {"method": "POST", "url": "https://a.example/json", "body": {"json": {"id": 1, "tags": ["a", "b"]}}},
           "response": {"status": 201, "headers": [["Content-Type", "application/json"]], "body": {"json": {"ok": true}}}},
          {"request": {"method": "GET", "url": "https://a.example/base64"},
           "response": {"status": 200, "body": {"base64": "AAEC/w=="}}}
        ]}
        """#

    /// HAR with a posted body, text content and base64 content.
    static let har = #"""
        {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
           "request": {"method": "POST", "url": "https://a.example/form", "httpVersion": "HTTP/1.1",
                       "headers": [{"name": "Content-Type", "value": "application/json"}],
                       "postData": {"mimeType": "application/json", "text": "{\"id\": 1}"}},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                        "headers": [{"name": "Content-Type", "value": "text/plain"}],
                        "content": {"size": 5, "mimeType": "text/plain", "text": "hello"}}},
          {"startedDateTime": "2026-01-01T00:00:01Z", "time": 1,
           "request": {"method": "GET", "url": "https://a.example/bin", "httpVersion": "HTTP/1.1", "headers": []},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                        "content": {"size": 4, "mimeType": "application/octet-stream", "encoding": "base64", "text": "AAEC/w=="}}}
        ]}}
        """#

    /// Loads `bytes` the way `CassetteFile.loadEngine` loads a file once read, and returns only the
    /// engine, so that nothing of the load outlives the call but what the engine kept.
    private static func engine(loading bytes: [UInt8], as format: CassetteFormat) throws -> ReplayEngine {
        let streamed = format == .har ? try HARFormat.stream(bytes, file: "t.har") : try NativeFormat.stream(bytes, file: "t.json")
        return try CassetteFile.indexTracks(of: streamed, strategy: nil, configuration: nil).engine
    }

    /// Where `bytes`' buffer is once it is uniquely referenced: its address now when nobody else
    /// references it, a new one when someone did.
    private static func addressAfterMutating(_ bytes: inout [UInt8]) -> UInt {
        bytes.withUnsafeMutableBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("the probe sees a reference kept to the bytes")
    func probeDetectsAReference() {
        var bytes = Array(Self.native.utf8)
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let kept = DocumentSource(file: nil, bytes: bytes)
        #expect(Self.addressAfterMutating(&bytes) != address)
        #expect(kept.bytes.count == bytes.count)
    }

    @Test("an engine loaded from native JSON or HAR references none of the file's bytes", arguments: [CassetteFormat.native, .har])
    func engineKeepsNoBytes(format: CassetteFormat) throws {
        var bytes = Array((format == .har ? Self.har : Self.native).utf8)
        let address = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let engine = try Self.engine(loading: bytes, as: format)
        #expect(Self.addressAfterMutating(&bytes) == address)
        // The engine did load every track, bodies included.
        let expected = format == .har ? 2 : 3
        #expect(engine.tracks.count == expected)
        #expect(engine.tracks.last?.response?.body == [0x00, 0x01, 0x02, 0xFF])
    }
}
