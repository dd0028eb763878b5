import Foundation
import Testing
import TonearmWorkloads
import TonearmTestSupport
import Tonearm
@testable import TonearmCassettes

/// Truncated and corrupted files must fail with an error (or load), never crash, and never half-load.
@Suite("Bad input", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
struct BadInputTests {
    /// Every prefix of small files in each syntax: each either loads or throws a located error.
    @Test("every prefix of a small file is an error or a valid load", arguments: [
        "vinyl/vinyl_upload.json", "dvr/example.json", "vcr/vcrpy-gzip_requests.yaml", "wiremock/mappings/scc-shouldMarkClientAsFraud.json",
    ])
    func prefixes(_ path: String) throws {
        let bytes = try Conformance.bytes(path)
        var errors = 0
        for length in 0..<bytes.count {
            do {
                _ = try Self.load(Array(bytes[..<length]), like: path)
            } catch {
                errors += 1
                #expect(error.file == path)
                #expect(!error.expected.isEmpty)
            }
        }
        #expect(errors > bytes.count / 2)
        _ = try Self.load(bytes, like: path)
    }

    /// Random byte flips in larger files, with a fixed seed so failures reproduce.
    @Test("random byte flips are an error or a valid load", arguments: [
        "dvr/multiple.json", "har/playwright-har-fulfill.har", "vcr/llm-test_tool_use_chain_of_two_calls.yaml",
    ])
    func byteFlips(_ path: String) throws {
        let original = try Conformance.bytes(path)
        var random = SeededRandom(seed: 0x746F_6E65)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                _ = try Self.load(bytes, like: path)
            } catch {
                #expect(error.file == path)
            }
        }
    }

    @Test("a native cassette that is cut short or corrupted names where")
    func nativeCorruption() throws {
        let bytes = try NativeFormat.encode(NativeFormatTests.sample)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: CassetteError.self) { try NativeFormat.decode(Array(bytes[..<length]), file: "cut.json") }
        }
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            var corrupted = bytes
            corrupted[Int.random(in: 0..<corrupted.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            do {
                _ = try NativeFormat.decode(corrupted, file: "flip.json")
            } catch {
                #expect(error.line != nil || error.path != nil)
            }
        }
    }

    @Test("deep nesting is refused instead of overflowing the stack")
    func deepNesting() throws {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(throws: CassetteError.self) { try VinylFormat.decode(deep, file: "deep.json") }
        #expect(error.expected.contains("nested"))
    }

    @Test("wrongly typed YAML names the YAML path and line")
    func yamlTypeError() throws {
        let yaml = "interactions:\n- request:\n    method: GET\n    uri: [not, a, string]\n  response: {status: {code: 200}}\n"
        let error = try #require(throws: CassetteError.self) { try VCRFormat.decode(Array(yaml.utf8), file: "bad.yaml") }
        #expect(error.path == "$.interactions[0].request.uri")
        #expect(error.line == 4)
        #expect(error.expected == "a string")
    }

    static func load(_ bytes: [UInt8], like path: String) throws(CassetteError) -> CassetteImport {
        switch path.split(separator: "/").first {
        case "vinyl": try VinylFormat.decode(bytes, file: path)
        case "dvr": try DVRFormat.decode(bytes, file: path)
        case "har": try HARFormat.decode(bytes, file: path)
        case "wiremock": try WireMockFormat.decode(bytes, file: path)
        default: try VCRFormat.decode(bytes, file: path)
        }
    }
}

