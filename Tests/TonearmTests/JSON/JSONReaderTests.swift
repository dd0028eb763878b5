import PropertyBased
import Testing

@testable import Tonearm

@Suite("JSONReader")
struct JSONReaderTests {
    /// Reads `text` into a value with the reader alone (numbers as written, members in document order).
    static func read(_ text: String, options: JSONReader.Options = JSONReader.Options()) throws(JSONSyntaxError) -> JSONValue {
        try read(bytes: Array(text.utf8), options: options)
    }

    static func read(bytes: [UInt8], options: JSONReader.Options = JSONReader.Options()) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, options: options)
            do throws(JSONSyntaxError) {
                let value = try JSONValue.read(reader.value(), from: &reader)
                try reader.end()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `value` with every number in canonical form, to compare with generated (canonical) values.
    static func canonicalNumbers(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .number(let text): return try JSONValue(parsing: Array(text.utf8))
        case .array(let elements): return .array(try elements.map(canonicalNumbers))
        case .object(let members): return .object(try members.map { JSONMember(key: $0.key, value: try canonicalNumbers($0.value)) })
        default: return value
        }
    }

    static let samples = Generator<String, Shrink.None<String>>(run: { rng in
        JSONTesting.RandomJSON.render(JSONTesting.RandomJSON.value(depth: 4, using: &rng), using: &rng)
    })

    @Test("reading any rendering (whitespace, escape spellings, member order) gives the document's value")
    func readsRandomDocuments() async throws {
        await propertyCheck(count: 300, input: Self.samples) { text in
            let read = try Self.canonicalNumbers(try Self.read(text))
            #expect(read == (try JSONValue(parsing: Array(text.utf8))))
        }
    }

    @Test("skipValue validates without building and returns the value's exact byte range")
    func skipValueRange() async throws {
        await propertyCheck(count: 200, input: Self.samples) { text in
            let bytes = Array((" \n" + text + " ").utf8)
            let range = try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                return try reader.skipValue()
            }
            let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
            let trimmed = Array(text.utf8).drop { whitespace.contains($0) }.reversed().drop { whitespace.contains($0) }.reversed()
            #expect(Array(bytes[range]) == Array(trimmed))
        }
    }

    @Test("numbers are handed out as written, never rounded")
    func numbersAsWritten() throws {
        #expect(try Self.read("[9007199254740993, 12345678901234567890, 1.50, -0, 1E400]")
            == .array([.number("9007199254740993"), .number("12345678901234567890"), .number("1.50"), .number("-0"), .number("1E400")]))
    }

    @Test("escapes decode, surrogate pairs included; lone surrogates and bad UTF-8 are refused")
    func strings() throws {
        #expect(try Self.read(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00z""#) == .string("a\"\\/\u{08}\u{0C}\n\r\té😀z"))
        #expect(throws: JSONSyntaxError.self) { try Self.read(#""\ud83d""#) }
        #expect(throws: JSONSyntaxError.self) { try Self.read(#""\ude00x""#) }
        let invalidUTF8: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
        #expect(throws: JSONSyntaxError.self) { try Self.read(bytes: invalidUTF8) }
    }

    @Test("what the canonicaliser refuses, the reader refuses, with the position and what was found")
    func refusals() throws {
        for text in ["", "[1,]", "{\"a\" 1}", "[1 2]", "01", "1.", "1e", "-", "tru", "\"a", "\"\u{01}\"", "\"\\x\"", "{1:2}", "[] []", "{\"a\":1,}"] {
            #expect(throws: JSONSyntaxError.self, "\(text.debugDescription)") { try Self.read(text) }
            #expect(throws: JSONSyntaxError.self, "\(text.debugDescription)") { try JSONCanonicalizer().canonicalize(Array(text.utf8)) }
        }
        let error = try #require(throws: JSONSyntaxError.self) { try Self.read("{\"a\": [1,\n 2 x]}") }
        #expect(error.line == 2 && error.column == 4 && error.offset == 13)
        #expect(error.expected == "',' or ']' after an array element" && error.found == "'x'")
    }

    @Test("trailing commas and a byte-order mark only when asked for")
    func options() throws {
        let lenient = JSONReader.Options(allowsTrailingCommas: true, skipsByteOrderMark: true)
        #expect(try Self.read("\u{FEFF}[1, {\"a\": 2,},]", options: lenient) == .array([.number("1"), .object([JSONMember(key: "a", value: .number("2"))])]))
        #expect(throws: JSONSyntaxError.self) { try Self.read("\u{FEFF}[1]") }
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func depth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxError.self) { try Self.read(deep) }
    }
}
