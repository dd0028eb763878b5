import Foundation
import Testing
import TonearmTestSupport
import Tonearm
@testable import TonearmCassettes

/// Every importer against every real file in shared/conformance: it loads, it has the tracks the
/// file has, and each recorded request replays to its own track.
@Suite("Importers on the conformance corpus", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
struct ImporterConformanceTests {
    static let harFiles = Conformance.files(in: "har", withExtensions: ["har"])
    static let vcrFiles = Conformance.files(in: "vcr", withExtensions: ["yml", "yaml"])
    static let dvrFiles = Conformance.files(in: "dvr", withExtensions: ["json"])
    static let vinylFiles = Conformance.files(in: "vinyl", withExtensions: ["json"])

    @Test("HAR files import and self-replay", arguments: harFiles)
    func har(_ path: String) throws {
        let imported = try HARFormat.decode(Conformance.bytes(path), file: path)
        let entryCount = try Self.jsonArrayCount(path, key: "entries")
        #expect(imported.cassette.entries.count == entryCount)
        #expect(try SelfReplay.failures(imported) == [])
    }

    @Test("VCR cassettes import and self-replay", arguments: vcrFiles)
    func vcr(_ path: String) throws {
        let imported = try VCRFormat.decode(Conformance.bytes(path), file: path)
        #expect(!imported.cassette.entries.isEmpty)
        for track in imported.cassette.tracks {
            #expect(track.request.method == track.request.method.uppercased())
            #expect(track.request.url.hasPrefix("http"))
        }
        #expect(try SelfReplay.failures(imported) == [])
    }

    @Test("DVR cassettes import and self-replay", arguments: dvrFiles)
    func dvr(_ path: String) throws {
        let imported = try DVRFormat.decode(Conformance.bytes(path), file: path)
        #expect(imported.cassette.entries.count == (try Self.jsonArrayCount(path, key: "interactions")))
        #expect(imported.cassette.entries.allSatisfy { $0.recordedAt != nil })
        #expect(try SelfReplay.failures(imported) == [])
    }

    @Test("Vinyl (and DVR-in-Vinyl) cassettes import and self-replay", arguments: vinylFiles)
    func vinyl(_ path: String) throws {
        let imported = try VinylFormat.decode(Conformance.bytes(path), file: path)
        #expect(!imported.cassette.entries.isEmpty)
        #expect(try SelfReplay.failures(imported) == [])
    }

    @Test("every importable file is detected as its format and loads through CassetteFile")
    func detection() throws {
        let expectations: [(files: [String], format: CassetteFormat)] = [
            (Self.harFiles, .har), (Self.vcrFiles, .vcr), (Self.dvrFiles, .dvr),
            (Self.vinylFiles.filter { $0.contains("vinyl_") }, .vinyl), (Self.vinylFiles.filter { $0.contains("dvr_") }, .dvr),
        ]
        for (files, format) in expectations {
            for path in files {
                #expect(try CassetteFormat.detect(Conformance.url(path)) == format, "\(path)")
                _ = try CassetteFile.load(Conformance.url(path))
            }
        }
    }

    // MARK: Format details users rely on

    @Test("HAR: base64 content is decoded, status 0 with _error becomes a transport error")
    func harChrome() throws {
        let imported = try HARFormat.decode(Conformance.bytes("har/mitmproxy-chrome.har"))
        let tracks = imported.cassette.tracks
        #expect(tracks[1].outcome == .transportError(.notConnectedToInternet))
        let png = try #require(tracks[2].response)
        #expect(png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("HAR: form POST body comes from postData.text")
    func harForm() throws {
        let imported = try HARFormat.decode(Conformance.bytes("har/mitmproxy-successful_log.har"))
        #expect(imported.cassette.tracks[1].request.body == Array("key1=value1&key2=value2".utf8))
    }

    @Test("HAR: repeated query keys survive in the URL")
    func harRepeatedQuery() throws {
        let imported = try HARFormat.decode(Conformance.bytes("har/pollyjs-jest-puppeteer-recording.har"))
        #expect(imported.cassette.tracks[1].request.url.hasSuffix("id=3&id=9&id=2&id=7&id=10&id=5"))
    }

    @Test("VCR: vcrpy !!binary gzip bodies keep their gzip bytes and header")
    func vcrGzip() throws {
        let imported = try VCRFormat.decode(Conformance.bytes("vcr/vcrpy-gzip_requests.yaml"))
        let response = try #require(imported.cassette.tracks.first?.response)
        #expect(response.body.starts(with: [0x1F, 0x8B]))
        #expect(response.headers.first(named: "content-encoding") == "gzip")
        #expect(response.status == 200)
        #expect(imported.cassette.tracks.first?.request.body == [], "YAML `body: null` is no body, not the text null")
    }

    @Test("VCR: Ruby's local !binary tag and base64_string are decoded")
    func vcrRubyBinary() throws {
        let contentful = try VCRFormat.decode(Conformance.bytes("vcr/contentful-query_array_1.yml"))
        #expect(try #require(contentful.cassette.tracks.first?.response).body.starts(with: [0x1F, 0x8B]))
        #expect(contentful.cassette.tracks.first?.request.method == "GET")
        #expect(contentful.cassette.entries.first?.recordedAt == Timestamp.parseRFC1123("Fri, 15 Nov 2019 09:46:36 GMT"))
        let images = try VCRFormat.decode(Conformance.bytes("vcr/ruby-openai-images_variations_image_png.yml"))
        let body = try #require(images.cassette.tracks.first?.request.body)
        #expect(String(decoding: body.prefix(13), as: UTF8.self) == "-------------")
    }

    @Test("DVR: bodies by content type — text, JSON value, base64")
    func dvrBodies() throws {
        let text = try DVRFormat.decode(Conformance.bytes("dvr/text.json"))
        #expect(text.cassette.tracks[0].request.body == Array("Some text.".utf8))
        let failed = try DVRFormat.decode(Conformance.bytes("dvr/failed-request-example.json"))
        let body = String(decoding: try #require(failed.cassette.tracks[0].response).body, as: UTF8.self)
        #expect(body.contains("AccessTokenInvalid"))
        let json = try DVRFormat.decode(Conformance.bytes("dvr/json-example.json"))
        #expect(String(decoding: try #require(json.cassette.tracks[0].response).body, as: UTF8.self).hasPrefix("{\"rating\":\"Bad\""))
        let upload = try DVRFormat.decode(Conformance.bytes("dvr/upload-file.json"))
        #expect(String(decoding: upload.cassette.tracks[0].request.body, as: UTF8.self).contains("test file"))
    }

    @Test("Vinyl: trailing commas are accepted and method defaults to GET")
    func vinylTrailingCommas() throws {
        let imported = try VinylFormat.decode(Conformance.bytes("vinyl/vinyl_multiple.json"))
        #expect(imported.cassette.tracks.map(\.request.url) == ["http://api.test1.com", "http://api.test2.com"])
        #expect(imported.cassette.tracks.allSatisfy { $0.request.method == "GET" })
    }

    @Test("imports convert to the native format and back without loss", arguments: harFiles + vcrFiles + dvrFiles + vinylFiles)
    func nativeRoundTrip(_ path: String) throws {
        let imported = try CassetteFile.load(Conformance.url(path))
        let bytes = try NativeFormat.encode(imported.cassette)
        let reloaded = try NativeFormat.decode(bytes)
        #expect(reloaded == imported.cassette.roundedToMilliseconds())
        #expect(try NativeFormat.encode(reloaded) == bytes)
    }

    static func jsonArrayCount(_ path: String, key: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(Conformance.bytes(path))) as? [String: Any]
        let container = (object?["log"] as? [String: Any]) ?? object
        return (container?[key] as? [Any])?.count ?? -1
    }
}

extension Cassette {
    /// The cassette with recording times rounded to what the native format keeps (milliseconds).
    func roundedToMilliseconds() -> Cassette {
        var copy = self
        for index in copy.entries.indices {
            copy.entries[index].recordedAt = copy.entries[index].recordedAt.map {
                Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000)
            }
            copy.entries[index].track.delay = copy.entries[index].track.delay.flatMap(RecordedLimits.milliseconds).map { .milliseconds($0) }
        }
        return copy
    }
}
