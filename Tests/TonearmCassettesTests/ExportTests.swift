import Foundation
import Testing
import TonearmTestSupport
import Tonearm
@testable import TonearmCassettes

@Suite("Exporters and stub folders")
struct ExportTests {
    @Test("HAR export opens as HAR again with the same tracks")
    func harRoundTrip() throws {
        let cassette = NativeFormatTests.sample
        let har = try HARFormat.encode(cassette)
        let object = try JSONSerialization.jsonObject(with: Data(har)) as? [String: Any]
        let log = try #require(object?["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let reimported = try HARFormat.decode(har, file: "export.har")
        #expect(reimported.cassette.tracks.map(\.request) == cassette.tracks.map(\.request))
        #expect(reimported.cassette.tracks.map(\.outcome) == cassette.tracks.map(\.outcome))
        #expect(reimported.cassette.tracks.map(\.name) == cassette.tracks.map(\.name))
        #expect(reimported.cassette.entries.map(\.recordedAt?.timeIntervalSince1970) == cassette.entries.map { $0.recordedAt?.timeIntervalSince1970 ?? 0 })
        #expect(try SelfReplay.failures(reimported) == [])
    }

    @Test("HAR conformance files export and re-import with the same requests and outcomes",
          .enabled(if: Conformance.isAvailable, Conformance.skipMessage),
          arguments: Conformance.files(in: "har", withExtensions: ["har"]))
    func harConformanceRoundTrip(_ path: String) throws {
        let imported = try HARFormat.decode(Conformance.bytes(path))
        let again = try HARFormat.decode(try HARFormat.encode(imported.cassette))
        #expect(again.cassette.tracks == imported.cassette.tracks)
    }

    @Test("stub folders are written one file per request and read back in order")
    func stubFolders() throws {
        let folder = try TemporaryFolder()
        let tests = [(test: "LoginTests", cassette: NativeFormatTests.sample), (test: "EmptyTests", cassette: Cassette())]
        try StubFolder.write(tests, to: folder.url)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("LoginTests").path).sorted()
        #expect(files.first == "001-POST-users.json")
        #expect(files.count == 5)
        let read = try StubFolder.read(folder.url)
        #expect(read.map(\.test) == ["EmptyTests", "LoginTests"])
        var expected = NativeFormatTests.sample
        expected.name = "LoginTests"
        expected.strategy = nil
        #expect(read[1].cassette == expected)
        // Re-writing fewer tracks removes the stale files.
        try StubFolder.writeTest(Cassette(tracks: [NativeFormatTests.sample.tracks[0]]), to: folder.file("LoginTests"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("LoginTests").path) == ["001-POST-users.json"])
    }

    @Test("CassetteFile converts between formats by extension")
    func convert() throws {
        let folder = try TemporaryFolder()
        try CassetteFile.save(NativeFormatTests.sample, to: folder.file("a.json"), format: .native)
        let loaded = try CassetteFile.load(folder.file("a.json"))
        try CassetteFile.save(loaded.cassette, to: folder.file("a.har"), format: CassetteFile.outputFormat(for: folder.file("a.har")))
        #expect(try CassetteFormat.detect(folder.file("a.har")) == .har)
        #expect(try CassetteFile.load(folder.file("a.har")).cassette.tracks.map(\.request) == NativeFormatTests.sample.tracks.map(\.request))
    }
}
