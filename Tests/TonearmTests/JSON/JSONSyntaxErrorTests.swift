import Testing
import TonearmWorkloads

@testable import Tonearm

@Suite("Strict parsing and error positions")
struct JSONSyntaxErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var input: String
        var offset: Int
        var line: Int
        var column: Int
        var expected: String
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "  \n ", offset: 4, line: 2, column: 2, expected: "a value"),
        Case(input: "[1,2,]", offset: 5, line: 1, column: 6, expected: "a value"),
        Case(input: "{\"a\":1,}", offset: 7, line: 1, column: 8, expected: "a member name"),
        Case(input: "{,}", offset: 1, line: 1, column: 2, expected: "a member name or '}'"),
        Case(input: "{\n  \"a\": 1\n  \"b\": 2\n}", offset: 13, line: 3, column: 3, expected: "',' or '}'"),
        Case(input: "[1 2]", offset: 3, line: 1, column: 4, expected: "',' or ']'"),
        Case(input: "{\"a\" 1}", offset: 5, line: 1, column: 6, expected: "':'"),
        Case(input: "01", offset: 1, line: 1, column: 2, expected: "'.', 'e' or the end of the number after a leading 0"),
        Case(input: "-01", offset: 2, line: 1, column: 3, expected: "'.', 'e' or the end of the number after a leading 0"),
        Case(input: "1.", offset: 2, line: 1, column: 3, expected: "a digit after '.'"),
        Case(input: ".5", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "1e", offset: 2, line: 1, column: 3, expected: "a digit in the exponent"),
        Case(input: "1e+", offset: 3, line: 1, column: 4, expected: "a digit in the exponent"),
        Case(input: "-", offset: 1, line: 1, column: 2, expected: "a digit"),
        Case(input: "+1", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "NaN", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "Infinity", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "-Infinity", offset: 1, line: 1, column: 2, expected: "a digit"),
        Case(input: "[1e400]", offset: 1, line: 1, column: 2, expected: "a finite number"),
        Case(input: "[-1.5e309]", offset: 1, line: 1, column: 2, expected: "a finite number"),
        Case(input: "nul", offset: 0, line: 1, column: 1, expected: "'null'"),
        Case(input: "[tru]", offset: 1, line: 1, column: 2, expected: "'true'"),
        Case(input: "{} x", offset: 3, line: 1, column: 4, expected: "end of input"),
        Case(input: "1 2", offset: 2, line: 1, column: 3, expected: "end of input"),
        Case(input: "\"abc", offset: 4, line: 1, column: 5, expected: "'\"' to end the string"),
        Case(input: "\"a\u{1}b\"", offset: 2, line: 1, column: 3,
             expected: "an escape sequence instead of the raw control character \\u0001"),
        Case(input: "\"tab\there\"", offset: 4, line: 1, column: 5,
             expected: "an escape sequence instead of the raw control character \\u0009"),
        Case(input: "\"\\x\"", offset: 2, line: 1, column: 3, expected: "an escape character (one of \" \\ / b f n r t u)"),
        Case(input: "\"\\u12G4\"", offset: 5, line: 1, column: 6, expected: "a hex digit"),
        Case(input: "\"\\u12", offset: 5, line: 1, column: 6, expected: "a hex digit"),
        Case(input: "\"\\uD83D\"", offset: 7, line: 1, column: 8,
             expected: "a \\u escape of a low surrogate to pair with \\uD83D"),
        Case(input: "\"\\uD83Dx\"", offset: 7, line: 1, column: 8,
             expected: "a \\u escape of a low surrogate to pair with \\uD83D"),
        Case(input: "\"\\uD83D\\u0041\"", offset: 7, line: 1, column: 8,
             expected: "a low surrogate (\\uDC00 to \\uDFFF) to pair with \\uD83D"),
        Case(input: "\"\\uD83D\\uD83D\"", offset: 7, line: 1, column: 8,
             expected: "a low surrogate (\\uDC00 to \\uDFFF) to pair with \\uD83D"),
        Case(input: "\"\\uDE02\"", offset: 1, line: 1, column: 2,
             expected: "a high surrogate before the low surrogate \\uDE02"),
        Case(input: "{\"id\":1,\"x\":2,\"id\":3}", offset: 14, line: 1, column: 15, expected: "no duplicate member \"id\""),
        Case(input: "{\"b\":1,\"a\":2,\"b\":3}", offset: 13, line: 1, column: 14, expected: "no duplicate member \"b\""),
        Case(input: "{\"a\":1,\"\\u0061\":2}", offset: 7, line: 1, column: 8, expected: "no duplicate member \"a\""),
        Case(input: "{\"é\":\n{\"k\":1,\"k\":2}}", offset: 14, line: 2, column: 8, expected: "no duplicate member \"k\""),
        Case(input: "\u{FEFF}{}", offset: 0, line: 1, column: 1, expected: "a value"),
        Case(input: "[\"é\", x]", offset: 7, line: 1, column: 7, expected: "a value"),
    ]

    @Test("each rejection names its position and what was expected", arguments: cases)
    func rejection(_ testCase: Case) throws {
        let error = try #require(JSONTesting.syntaxError(testCase.input))
        #expect(error.offset == testCase.offset)
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
        #expect(error.expected == testCase.expected)
    }

    @Test("the description reads line, column, byte and expectation")
    func description() throws {
        let error = try #require(JSONTesting.syntaxError("{\n  \"a\": 1\n  \"b\": 2\n}"))
        #expect(error.description == "line 3, column 3 (byte 13): expected ',' or '}'")
    }

    /// Raw bytes that are not UTF-8, with the offset of the bad sequence's first byte.
    static let invalidUTF8: [(bytes: [UInt8], offset: Int)] = [
        ([0x22, 0xFF, 0x22], 1),  // never valid
        ([0x22, 0x61, 0xC0, 0xAF, 0x22], 2),  // overlong "/"
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong 3-byte
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // encoded surrogate U+D800
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // above U+10FFFF
        ([0x22, 0xC3, 0x22], 1),  // truncated sequence
        ([0x22, 0xE2, 0x82], 1),  // truncated at end of input
        ([0x22, 0x80, 0x22], 1),  // lone continuation byte
        ([0x5B, 0xC3, 0xA9, 0x5D], 1),  // non-ASCII outside a string
    ]

    @Test("invalid UTF-8 is rejected where the bad sequence starts")
    func invalidUTF8IsRejected() throws {
        for (bytes, offset) in Self.invalidUTF8 {
            let error = try #require(JSONTesting.syntaxError(bytes: bytes))
            #expect(error.offset == offset, "\(bytes)")
            #expect(error.expected == (bytes[0] == 0x5B ? "a value" : "valid UTF-8"), "\(bytes)")
        }
    }

    @Test("valid multi-byte UTF-8 at every length is accepted unchanged")
    func validUTF8IsAccepted() throws {
        let text = "\"é€😂\u{10FFFF}\u{FFFF}\u{E000}\""
        #expect(try JSONTesting.canonical(text) == text)
    }

    @Test("nesting of exactly 512 levels is accepted, 513 is an error")
    func depthLimit() throws {
        let accepted = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONTesting.canonical(accepted) == accepted)
        let objects = String(repeating: "{\"a\":", count: 511) + "[]" + String(repeating: "}", count: 511)
        #expect(try JSONTesting.canonical(objects) == objects)

        let rejected = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(JSONTesting.syntaxError(rejected))
        #expect(error.offset == 512)
        #expect(error.expected == "nesting depth at most 512")
    }

    @Test("hostile nesting far past the limit is an error, not a stack overflow")
    func hostileNesting() throws {
        let error = try #require(JSONTesting.syntaxError(String(repeating: "[{\"a\":", count: 200_000)))
        #expect(error.expected == "nesting depth at most 512")
    }

    @Test("on error, the output buffer is left as it was")
    func outputUntouchedOnError() {
        var output: [UInt8] = Array("prefix".utf8)
        let input: [UInt8] = Array("{\"b\":[1,2,{\"c\":true}],\"a\":1,\"a\":2}".utf8)
        _ = input.withUnsafeBytes { raw in
            #expect(throws: JSONSyntaxError.self) {
                try JSONCanonicalizer().canonicalize(raw, appendingTo: &output)
            }
        }
        #expect(output == Array("prefix".utf8))
    }

    @Test("appending keeps what the buffer already held")
    func appendingKeepsPrefix() throws {
        var output: [UInt8] = Array("key:".utf8)
        let input: [UInt8] = Array("{ \"b\": 1, \"a\": 2 }".utf8)
        try input.withUnsafeBytes { raw in
            try JSONCanonicalizer().canonicalize(raw, appendingTo: &output)
        }
        #expect(String(decoding: output, as: UTF8.self) == "key:{\"a\":2,\"b\":1}")
    }

    static let sampleDocument = """
        {"user": {"name": "Zoë \\u00c5\\ud83d\\ude02", "email": "z@example.com", "tags": ["a", "b\\n"]},
         "items": [{"id": 9007199254740993, "price": 4.50, "ratio": 1E-7}, {"id": 2, "price": -0.0}],
         "flags": {"ok": true, "no": false, "none": null}, "text": "\\/\\"\\\\\\b\\f\\r\\t"}
        """

    @Test("every prefix of a valid document either canonicalises or throws")
    func everyPrefix() {
        let bytes = Array(Self.sampleDocument.utf8)
        var accepted = 0
        for length in 0..<bytes.count {
            if (try? JSONCanonicalizer().canonicalize(Array(bytes[..<length]))) != nil { accepted += 1 }
        }
        // No proper prefix of an object is a complete document.
        #expect(accepted == 0)
        #expect((try? JSONCanonicalizer().canonicalize(bytes)) != nil)
    }

    @Test("random byte flips, insertions and deletions never crash")
    func randomCorruption() {
        var rng = SeededRandom(seed: 0x5EED)
        let original = Array(Self.sampleDocument.utf8)
        let interesting: [UInt8] = Array("{}[]\",:\\u0123456789eE+-.tfn \n".utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var outcomes = (accepted: 0, rejected: 0)
        for _ in 0..<20_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                let byte = Bool.random(using: &rng)
                    ? (interesting.randomElement(using: &rng) ?? 0) : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            do {
                let output = try JSONCanonicalizer().canonicalize(bytes)
                // Whatever is accepted must be canonical already.
                #expect(try JSONCanonicalizer().canonicalize(output) == output)
                outcomes.accepted += 1
            } catch {
                #expect(error.offset >= 0 && error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.accepted > 0 && outcomes.rejected > 0)
    }
}
