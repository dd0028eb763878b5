import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Issue 8 §5: formats are values, each with its own detector, reader and writer.
@Suite("Cassette formats as values")
struct CassetteFormatTests {
    @Test("formats are found by name in any case; names are unique; native, HAR and stubs are the writable ones")
    func names() {
        #expect(CassetteFormat(name: "HAR") == .har)
        #expect(CassetteFormat(name: "WireMock") == .wiremock)
        #expect(CassetteFormat(name: "cassette") == nil)
        #expect(Set(CassetteFormat.all.map(\.name)).count == CassetteFormat.all.count)
        #expect(CassetteFormat.writable == [.native, .har, .stubs])
        #expect("\(CassetteFormat.vcr)" == "vcr")
    }

    @Test("saving in a format Tonearm only reads is an error listing the writable ones, and writes nothing")
    func readOnlyFormats() throws {
        let folder = try TemporaryFolder()
        for format in CassetteFormat.all where !format.isWritable {
            let error = try #require(throws: CassetteError.self) { try format.save(Cassette(), to: folder.file("out.yml")) }
            #expect(error.expected.contains("native, har, stubs"))
            #expect(error.found == format.name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    static let samples: [(file: String, content: String, format: CassetteFormat)] = [
        ("a.json", #"{"formatVersion": 1, "tracks": []}"#, .native),
        ("b.json", #"{"formatVersion": 1, "log": {}, "tracks": []}"#, .native),
        ("c.har", #"{"log": {"entries": []}}"#, .har),
        ("c.json", #"{"log": {"entries": []}}"#, .har),
        ("d.json", #"{"name": "x", "interactions": []}"#, .dvr),
        ("e.json", #"[{"request": {"url": "https://a.example"}, "response": {"status": 200}},]"#, .vinyl),
        ("f.json", #"{"mappings": []}"#, .wiremock),
        ("g.json", #"{"request": {"url": "/a"}, "response": {"status": 200}}"#, .wiremock),
        ("h.json", #"{"rules": []}"#, .rules),
        ("i.json", #"[{"url": "https://a.example", "response": {"status": 200}}]"#, .rules),
        ("j.yml", "http_interactions:\n- request: {}\n", .vcr),
        ("k.yaml", "interactions: []\n", .vcr),
        ("l.yaml", "rules: []\n", .rules),
        ("m.json", "{not json", .native),
    ]

    @Test("each file is detected as the format whose codec claims it")
    func detection() throws {
        let folder = try TemporaryFolder()
        for sample in Self.samples {
            try folder.write(sample.file, sample.content)
            #expect(try CassetteFormat.detect(folder.file(sample.file)) == sample.format, "\(sample.file)")
        }
        try FileManager.default.createDirectory(at: folder.file("stubs.json"), withIntermediateDirectories: true)
        #expect(try CassetteFormat.detect(folder.file("stubs.json")) == .stubs)
        try folder.write("o.txt", "{}")
        let error = try #require(throws: CassetteError.self) { try CassetteFormat.detect(folder.file("o.txt")) }
        #expect(error.found == "extension \"txt\"")
    }

    @Test("a .json file that is not JSON is read by the native reader, which says where the syntax breaks")
    func unclaimedJSON() throws {
        let folder = try TemporaryFolder()
        try folder.write("m.json", "{not json")
        let error = try #require(throws: CassetteError.self) { try CassetteFile.load(folder.file("m.json")) }
        #expect(error.line == 1)
    }

    @Test("an explicit format reads with that format's reader, never another's")
    func explicitFormat() throws {
        let folder = try TemporaryFolder()
        try folder.write("d.json", #"{"name": "x", "interactions": []}"#)
        // Read as native, a DVR file is a native error, not a silently empty Vinyl cassette.
        #expect(throws: CassetteError.self) { try CassetteFile.load(folder.file("d.json"), format: .native) }
        #expect(try CassetteFile.load(folder.file("d.json"), format: .dvr).cassette.name == "x")
    }

    @Test("HAR export streams in chunks; the file holds the same document as the in-memory export")
    func harStreaming() throws {
        let track = NativeFormatTests.sample.entries[0]
        let cassette = Cassette(entries: Array(repeating: track, count: 600))
        let folder = try TemporaryFolder()
        var chunks: [[UInt8]] = []
        try HARFormat.encode(cassette, creatorVersion: "1") { (chunk) throws(CassetteError) in chunks.append(chunk) }
        #expect(chunks.count > 2)
        #expect(chunks.dropLast().allSatisfy { $0.count >= HARFormat.chunkSize && $0.count < HARFormat.chunkSize * 2 })
        try CassetteFormat.har.save(cassette, to: folder.file("big.har"))
        let written = Array(try Data(contentsOf: folder.file("big.har")))
        #expect(written == chunks.flatMap { $0 })
        #expect(written == (try HARFormat.encode(cassette)))
        let reimported = try HARFormat.decode(written)
        #expect(reimported.cassette.entries.count == 600)
        #expect(reimported.cassette.tracks.allSatisfy { $0.request == track.track.request && $0.outcome == track.track.outcome })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["big.har"])
    }

    @Test("HAR export keeps the pretty-printed layout: two-space indentation, entries at the third level")
    func harLayout() throws {
        let empty = String(decoding: try HARFormat.encode(Cassette()), as: UTF8.self)
        #expect(empty == """
            {
              "log": {
                "version": "1.2",
                "creator": {
                  "name": "Tonearm",
                  "version": "1"
                },
                "entries": []
              }
            }

            """)
        let one = String(decoding: try HARFormat.encode(Cassette(entries: [NativeFormatTests.sample.entries[0]])), as: UTF8.self)
        #expect(one.contains("\"entries\": [\n      {\n        \"startedDateTime\": "))
        #expect(one.hasSuffix("      }\n    ]\n  }\n}\n"))
    }
}
