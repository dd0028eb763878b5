import Foundation
import PropertyBased
import Testing
import TonearmTestSupport
import Tonearm
@testable import TonearmCassettes

/// Issue 9: values a file supplies never trap, and whatever an importer accepts is written natively
/// and loads back; what the native reader would refuse is refused (or dropped with a warning) on import
/// and refused on write.
@Suite("Recorded values: no overflow, and imports load back")
struct RecordedLimitsTests {
    // MARK: Times

    static func vcr(recordedAt: String, status: String = "200") -> [UInt8] {
        Array("""
            http_interactions:
            - request:
                method: get
                uri: https://api.example.com/a
                body: {string: ''}
                headers: {}
              response:
                status: {code: \(status), message: OK}
                headers: {}
                body: {string: hi}
              recorded_at: \(recordedAt)
            """.utf8)
    }

    static func dvr(recordedAt: String, status: String = "200") -> [UInt8] {
        Array("""
            {"name": "x", "interactions": [{"recorded_at": \(recordedAt),
              "request": {"method": "GET", "url": "https://api.example.com/a"},
              "response": {"status": \(status), "body": "hi", "headers": {"Content-Type": "text/plain"}}}]}
            """.utf8)
    }

    @Test(
        "out-of-range VCR times are dropped with a warning naming file and path, not a crash",
        arguments: [
            "'Sun, 10 Aug 2025 999999999999999999:00:00 GMT'", "'Sun, 10 Aug 9223372036854775807 10:00:00 GMT'",
            "'Sun, 10 Aug -024 10:00:00 GMT'", "'Sun, 10 Aug 2025 10:99:00 GMT'", "1e300", "inf", "nan",
            "'+456604-01-01T00:00:00Z'", "-62167219201",
        ])
    func vcrTimes(_ text: String) throws {
        let imported = try VCRFormat.decode(Self.vcr(recordedAt: text), file: "bad.yml")
        #expect(imported.cassette.entries.count == 1)
        #expect(imported.cassette.entries[0].recordedAt == nil)
        let warning = try #require(imported.warnings.first)
        #expect(warning.file == "bad.yml")
        #expect(warning.path == "$.http_interactions[0].recorded_at")
        #expect(warning.message.contains("year 0000 to 9999"))
        #expect(try NativeFormat.decode(NativeFormat.encode(imported.cassette)) == imported.cassette)
    }

    @Test("out-of-range DVR times (1e300, year 456604) are dropped with a warning", arguments: ["1e300", "14346000000000", "-1e20"])
    func dvrTimes(_ text: String) throws {
        let imported = try DVRFormat.decode(Self.dvr(recordedAt: text), file: "bad.json")
        #expect(imported.cassette.entries.map(\.recordedAt) == [nil])
        #expect(imported.warnings.map(\.path) == ["$.interactions[0].recorded_at"])
    }

    @Test("the edges of the representable range are kept to the millisecond")
    func rangeEdges() throws {
        let first = try #require(Timestamp.parseISO8601("0000-01-01T00:00:00.000Z"))
        let last = try #require(Timestamp.parseISO8601("9999-12-31T23:59:59.999Z"))
        #expect(Timestamp.cassetteText(first) == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp.cassetteText(last) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.parseISO8601("0000-01-01T00:00:00+01:00") == nil)  // 31 Dec of year -1
        #expect(Timestamp.parseISO8601("9999-12-31T23:59:59.9999Z") == nil)  // rounds into year 10000
        #expect(Timestamp.cassetteText(Date(timeIntervalSince1970: 1e300)) == nil)
        #expect(Timestamp.cassetteText(Date(timeIntervalSince1970: .infinity)) == nil)
        #expect(Timestamp.iso8601(Date(timeIntervalSince1970: 1e300)) == "1e+300")  // property lists: text, no trap
    }

    @Test("a native time outside years 0000-9999 is an error naming file and path")
    func nativeTimeError() throws {
        let text = """
            {"formatVersion": 1, "tracks": [{"recordedAt": "0000-01-01T00:30:00+01:00",
              "request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}]}
            """
        let error = try #require(throws: CassetteError.self) { try NativeFormat.decode(Array(text.utf8), file: "n.json") }
        #expect(error.file == "n.json")
        #expect(error.path == "$.tracks[0].recordedAt")
    }

    @Test("writing a cassette holding a time, status or delay the reader refuses is an error naming the path")
    func writeErrors() throws {
        let track = Track(request: Request(method: "GET", url: "https://a.example/"), response: Response(status: 200))
        let cases: [(CassetteEntry, String)] = [
            (CassetteEntry(track, recordedAt: Date(timeIntervalSince1970: 1e300)), "$.tracks[1].recordedAt"),
            (CassetteEntry(track, recordedAt: Date(timeIntervalSince1970: -1e12)), "$.tracks[1].recordedAt"),
            (CassetteEntry(Track(request: track.request, response: Response(status: 2000))), "$.tracks[1].response.status"),
            (CassetteEntry(Track(request: track.request, response: Response(status: 99))), "$.tracks[1].response.status"),
            (CassetteEntry(Track(request: track.request, response: Response(status: 200), delay: .seconds(-1))), "$.tracks[1].delayMilliseconds"),
            (CassetteEntry(Track(request: track.request, response: Response(status: 200), delay: .seconds(Int64.max))), "$.tracks[1].delayMilliseconds"),
        ]
        let folder = try TemporaryFolder()
        for (entry, path) in cases {
            let cassette = Cassette(entries: [CassetteEntry(track), entry])
            let native = try #require(throws: CassetteError.self) { try NativeFormat.encode(cassette) }
            #expect(native.path == path)
            let har = try #require(throws: CassetteError.self) { try CassetteFormat.har.save(cassette, to: folder.file("x.har")) }
            #expect(har.path == path)
            #expect(har.file == folder.file("x.har").path)
            #expect(!FileManager.default.fileExists(atPath: folder.file("x.har").path))  // nothing half-written
        }
    }

    // MARK: Statuses

    @Test("importers refuse statuses outside 100-999 with the file and path")
    func statuses() throws {
        let wiremock = Array(#"{"request": {"method": "GET", "url": "/a"}, "response": {"status": 2000}}"#.utf8)
        let har = Array(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 2000}}]}}"#.utf8)
        let attempts: [(String, () throws(CassetteError) -> CassetteImport)] = [
            ("$.response.status", { () throws(CassetteError) in try WireMockFormat.decode(wiremock, file: "f") }),
            ("$.log.entries[0].response.status", { () throws(CassetteError) in try HARFormat.decode(har, file: "f") }),
            ("$.http_interactions[0].response.status.code", { () throws(CassetteError) in try VCRFormat.decode(Self.vcr(recordedAt: "x", status: "2000"), file: "f") }),
            ("$.interactions[0].response.status", { () throws(CassetteError) in try DVRFormat.decode(Self.dvr(recordedAt: "1", status: "42"), file: "f") }),
        ]
        for (path, attempt) in attempts {
            let error = try #require(throws: CassetteError.self) { try attempt() }
            #expect(error.path == path)
            #expect(error.file == "f")
            #expect(error.expected.contains("100 to 999"))
        }
    }

    @Test("a negative WireMock delay is an error, not a track the native reader refuses")
    func negativeDelay() throws {
        let mapping = Array(#"{"request": {"method": "GET", "url": "/a"}, "response": {"status": 200, "fixedDelayMilliseconds": -5}}"#.utf8)
        let error = try #require(throws: CassetteError.self) { try WireMockFormat.decode(mapping, file: "f") }
        #expect(error.path == "$.response.fixedDelayMilliseconds")
    }

    // MARK: Round trips

    /// Every file of the conformance corpus that Tonearm reads, whatever its format.
    static let corpus: [String] = {
        guard let root = Conformance.directory else { return [] }
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.compactMap { url -> String? in
            guard ["json", "har", "yml", "yaml"].contains(url.pathExtension.lowercased()),
                let format = try? CassetteFormat.detect(url), (try? format.load(url)) != nil
            else { return nil }
            return String(url.path.dropFirst(root.path.count + 1))
        }.sorted()
    }()

    @Test("the corpus covers every importer", .enabled(if: Conformance.isAvailable))
    func corpusCoverage() throws {
        let formats = Set(try Self.corpus.map { try CassetteFormat.detect(Conformance.url($0)) })
        #expect(formats.isSuperset(of: [.har, .vcr, .dvr, .vinyl, .wiremock]))
    }

    @Test("every imported conformance file, written natively, loads back equal", .enabled(if: Conformance.isAvailable), arguments: corpus)
    func corpusRoundTrip(_ path: String) throws {
        let imported = try CassetteFile.load(Conformance.url(path))
        try Self.expectRoundTrip(imported.cassette)
    }

    static func expectRoundTrip(_ cassette: Cassette, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let bytes = try NativeFormat.encode(cassette)
        let reloaded = try NativeFormat.decode(bytes)
        #expect(reloaded == cassette.roundedToMilliseconds(), sourceLocation: sourceLocation)
        #expect(try NativeFormat.encode(reloaded) == bytes, sourceLocation: sourceLocation)
    }

    /// Numbers at and beyond every edge the formats have.
    static let edgeNumbers: [String] = [
        "0", "99", "100", "200", "999", "1000", "2000", "-1", "-024", "9999", "10000", "456604", "253402300799",
        "253402300800", "-62167219200", "-62167219201", "1e300", "-1e300", "1.5", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "999999999999999999",
    ]
    static let edgeNumber = Gen.int(in: 0...(edgeNumbers.count - 1)).map { edgeNumbers[$0] }

    // 0.3 s alone; the limit is there to catch a hang. (One minute was too little: the whole suite on two
    // cores, with builds beside it, once held these tests for over three minutes waiting for a thread.)
    @Test("generated imports with edge statuses, times and delays: an error, or written natively they load back equal", .timeLimit(.minutes(5)))
    func generatedImports() async {
        await propertyCheck(count: 300, input: Self.edgeNumber, Self.edgeNumber, Self.edgeNumber, Gen.int(in: 0...3)) { status, time, number, format in
            let bytes: [UInt8]
            let decode: ([UInt8]) throws(CassetteError) -> CassetteImport
            switch format {
            case 0:
                bytes = Self.dvr(recordedAt: time, status: status)
                decode = { (bytes) throws(CassetteError) in try DVRFormat.decode(bytes) }
            case 1:
                let date = "Sun, 10 Aug \(number) \(time):00:00 GMT"
                bytes = Self.vcr(recordedAt: "'\(date)'", status: status)
                decode = { (bytes) throws(CassetteError) in try VCRFormat.decode(bytes) }
            case 2:
                bytes = Array(#"{"request": {"method": "GET", "url": "/a"}, "response": {"status": \#(status), "fixedDelayMilliseconds": \#(number)}}"#.utf8)
                decode = { (bytes) throws(CassetteError) in try WireMockFormat.decode(bytes) }
            default:
                let year = String(repeating: "0", count: max(0, 4 - time.count)) + time
                bytes = Array(#"{"log": {"entries": [{"startedDateTime": "\#(year)-01-01T00:00:00.000Z", "request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": \#(status)}}]}}"#.utf8)
                decode = { (bytes) throws(CassetteError) in try HARFormat.decode(bytes) }
            }
            guard let imported = try? decode(bytes) else { return }
            #expect(throws: Never.self) { try Self.expectRoundTrip(imported.cassette) }
        }
    }

    @Test("generated cassettes with edge values: writing is an error, or they load back equal", .timeLimit(.minutes(5)))
    func generatedCassettes() async {
        let seconds = Gen.int(in: 0...7).map { [0, 1e300, -1e300, .infinity, 253_402_300_799.999, 253_402_300_799.9996, -62_167_219_200, -62_167_219_200.0006][$0] }
        let statuses = Gen.int(in: 0...5).map { [Int.min, 0, 100, 999, 1000, Int.max][$0] }
        let delays = Gen.int(in: 0...4).map { [Duration.zero, .milliseconds(Int.max), .seconds(Int64.max), .seconds(-1), .milliseconds(1.5)][$0] }
        await propertyCheck(count: 300, input: seconds, statuses, delays) { seconds, status, delay in
            let track = Track(
                request: Request(method: "GET", url: "https://a.example/"), outcome: .response(Response(status: status)), delay: delay)
            let cassette = Cassette(entries: [CassetteEntry(track, recordedAt: Date(timeIntervalSince1970: seconds))])
            guard (try? NativeFormat.encode(cassette)) != nil else { return }
            #expect(throws: Never.self) { try Self.expectRoundTrip(cassette) }
        }
    }
}
