import Foundation
import Testing
import TonearmTestSupport

@testable import Tonearm

/// The RFC 8785 author's published test data (see shared/conformance/README.md).
@Suite("RFC 8785 conformance corpus", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
struct JCSConformanceTests {
    static let names = ["arrays", "french", "structures", "unicode", "values", "weird"]

    @Test("input/*.json canonicalises to output/*.json byte for byte", arguments: names)
    func inputMatchesOutput(name: String) throws {
        let input = [UInt8](try Conformance.data("jcs/input/\(name).json"))
        let expected = [UInt8](try Conformance.data("jcs/output/\(name).json"))
        let actual = try JSONCanonicalizer().canonicalize(input)
        #expect(
            actual == expected,
            "\(String(decoding: actual, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
    }

    @Test("outhex/*.txt agrees with the canonical output", arguments: names)
    func hexAgrees(name: String) throws {
        let input = [UInt8](try Conformance.data("jcs/input/\(name).json"))
        let hexText = String(decoding: try Conformance.data("jcs/outhex/\(name).txt"), as: UTF8.self)
        let expected = try #require(JSONTesting.bytes(fromHex: hexText))
        #expect(!expected.isEmpty)
        #expect(try JSONCanonicalizer().canonicalize(input) == expected)
    }

    @Test("the corpus names every pair the tests expect")
    func corpusIsComplete() throws {
        let inputs = Conformance.files(in: "jcs/input", withExtensions: ["json"]).map {
            URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent
        }
        #expect(inputs == Self.names)
    }

    /// Lines of `es6testfile10k.txt`: IEEE-754 bits in hex, then the expected ECMAScript text.
    static func numberLines() throws -> [(bits: UInt64, expected: String)] {
        let text = String(decoding: try Conformance.data("jcs/es6testfile10k.txt"), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            let parts = line.split(separator: ",")
            guard parts.count == 2, let bits = UInt64(parts[0], radix: 16) else {
                throw CorpusFormatError(line: String(line))
            }
            return (bits, String(parts[1]))
        }
    }

    struct CorpusFormatError: Error, CustomStringConvertible {
        var line: String
        var description: String { "unexpected line in es6testfile10k.txt: \(line)" }
    }

    @Test("ECMAScriptNumber.format matches all 10,000 lines of es6testfile10k.txt")
    func numberFormatting() throws {
        let lines = try Self.numberLines()
        #expect(lines.count == 10_000)
        var failures = 0
        for (bits, expected) in lines {
            let actual = ECMAScriptNumber.format(Double(bitPattern: bits))
            if actual != expected {
                failures += 1
                if failures <= 10 { Issue.record("\(String(bits, radix: 16)): \(actual) != \(expected)") }
            }
        }
        #expect(failures == 0)
    }

    @Test("every expected number text of es6testfile10k.txt canonicalises to itself")
    func numberTextIsAFixedPoint() throws {
        let lines = try Self.numberLines()
        let canonicalizer = JSONCanonicalizer()
        var failures = 0
        for (_, expected) in lines {
            let actual = String(decoding: try canonicalizer.canonicalize(Array(expected.utf8)), as: UTF8.self)
            if actual != expected {
                failures += 1
                if failures <= 10 { Issue.record("\(expected) canonicalised to \(actual)") }
            }
        }
        #expect(failures == 0)
    }
}
