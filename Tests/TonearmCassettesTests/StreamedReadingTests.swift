import Foundation
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport

/// Native cassettes and HAR files are read one track at a time from the validated text (no tree of the
/// whole file): loading must report the same errors, in the same order, as reading a whole tree did.
@Suite("Reading tracks one at a time")
struct StreamedReadingTests {
    private func nativeError(_ json: String) throws -> CassetteError {
        try #require(throws: CassetteError.self) { try NativeFormat.decode(Array(json.utf8), file: "big.json") }
    }

    @Test("a syntax error anywhere wins over a bad track before it: the whole file is checked first")
    func syntaxBeforeContent() throws {
        let error = try nativeError("""
            {
              "formatVersion": 1,
              "tracks": [
                {"request": {"method": "GET", "url": 42}, "response": {"status": 200}},
                {"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}
              ],
              "name": "x",
            }
            """)
        #expect(error.line == 8)
        #expect(error.column == 1)
        #expect(error.path == nil)
    }

    @Test("the format version is checked before any track, wherever it is in the file")
    func versionBeforeTracks() throws {
        let error = try nativeError(#"{"tracks": [{"request": {"url": 42}}], "formatVersion": 2}"#)
        #expect(error.path == "$.formatVersion")
        #expect(error.description.contains("formatVersion 1 or lower"))
    }

    @Test("a bad track late in the file names its index, line and column")
    func lateTrack() throws {
        let tracks = (0..<300).map { #"{"request": {"method": "GET", "url": "https://a.example/\#($0)"}, "response": {"status": 200}}"# }
            + [#"{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": "ok"}}"#]
        let error = try nativeError("{\n\"formatVersion\": 1,\n\"tracks\": [\n" + tracks.joined(separator: ",\n") + "\n]}")
        #expect(error.path == "$.tracks[300].response.status")
        #expect(error.line == 304)
        #expect(error.column == 84)
        #expect(error.found == "\"ok\"")
    }

    @Test("tracks that are not an array, or null, are refused as before")
    func tracksNotAnArray() throws {
        let text = try nativeError(#"{"formatVersion": 1, "tracks": "none"}"#)
        #expect(text.description == #"big.json:1:32: at $.tracks: expected an array, found a string"#)
        let null = try nativeError(#"{"formatVersion": 1, "tracks": null}"#)
        #expect(null.path == "$.tracks")
        #expect(null.found == "nothing (the member is missing)")
    }

    @Test("of repeated members the first is read, as before")
    func firstOfDuplicates() throws {
        let cassette = try NativeFormat.decode(Array(#"""
            {"formatVersion": 1, "tracks": [], "tracks": [{"request": {"url": "https://a.example/"}, "response": {"status": 200}}]}
            """#.utf8))
        #expect(cassette.entries.isEmpty)
    }

    @Test("HAR entries are read one at a time with the same errors")
    func harEntries() throws {
        let notArray = try #require(throws: CassetteError.self) {
            try HARFormat.decode(Array(#"{"log": {"entries": 5}}"#.utf8), file: "x.har")
        }
        #expect(notArray.description == "x.har:1:21: at $.log.entries: expected an array, found a number")
        let entry = #"{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}"#
        let badURL = #"{"request": {"method": "GET", "url": false}, "response": {"status": 200}}"#
        let error = try #require(throws: CassetteError.self) {
            try HARFormat.decode(Array(#"{"log": {"entries": [\#(entry), \#(badURL)]}}"#.utf8), file: "x.har")
        }
        #expect(error.path == "$.log.entries[1].request.url")
        #expect(error.found == "a boolean")
        let imported = try HARFormat.decode(Array(#"{"log": {"entries": [\#(entry), \#(entry)]}}"#.utf8))
        #expect(imported.cassette.entries.count == 2)
    }

    @Test("a request document's body is read from its text: strings decoded, JSON kept as written")
    func requestDocumentBody() throws {
        let text = try StubSchema.decodeRequest(Array(#"{"url": "https://a.example/", "body": "a\nb\u00e9"}"#.utf8), file: nil)
        #expect(text.body == Array("a\nbé".utf8))
        let json = try StubSchema.decodeRequest(Array(#"{"url": "https://a.example/", "body": {"n": 1.50, "big": 12345678901234567890}}"#.utf8), file: nil)
        #expect(json.body == Array(#"{"n":1.50,"big":12345678901234567890}"#.utf8))
        let error = try #require(throws: CassetteError.self) {
            try StubSchema.decodeRequest(Array(#"{"url": "https://a.example/", "body": [1,]}"#.utf8), file: "doc.json")
        }
        #expect(error.line == 1)
        #expect(error.column == 42)
    }

    @Test("a linked cassette's size is its target's, so a large one is trimmed after loading like any other")
    func sizeThroughSymbolicLink() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("target.json"), link = folder.file("link.json")
        try Data(repeating: 0x20, count: 12_345).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(FileAccess.size(of: link) == 12_345)
        #expect(FileAccess.size(of: folder.file("missing.json")) == 0)
    }

    @Test("format detection reads only the top level: a large native cassette is still native")
    func detection() throws {
        let folder = try TemporaryFolder()
        let cassette = Cassette(tracks: (0..<2_000).map { Track(request: Request(url: "https://a.example/\($0)"), response: Response(body: "ok")) })
        let file = folder.file("big.json")
        try NativeFormat.write(cassette, to: file)
        #expect(try CassetteFormat.detect(file) == .native)
        #expect(try CassetteFile.load(file).cassette == cassette)
        let vinyl = folder.file("vinyl.json")
        try Data(#"[{"request": {"url": "https://a.example/"}, "response": {}},]"#.utf8).write(to: vinyl)
        #expect(try CassetteFormat.detect(vinyl) == .vinyl)
    }
}
