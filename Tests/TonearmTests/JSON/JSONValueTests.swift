import Foundation
import Testing

@testable import Tonearm

@Suite("JSONValue")
struct JSONValueTests {
    @Test("parsing builds canonical values")
    func parsing() throws {
        let value = try JSONValue(parsing: Array(#" {"b": [1.0, "x\n", null, true], "a": {"c": -0, "d": 1E2}} "#.utf8))
        #expect(
            value
                == .object([
                    JSONMember(key: "a", value: .object([
                        JSONMember(key: "c", value: .number("0")), JSONMember(key: "d", value: .number("100")),
                    ])),
                    JSONMember(
                        key: "b", value: .array([.number("1"), .string("x\n"), .null, .bool(true)])),
                ]))
        #expect(value.canonicalText == #"{"a":{"c":0,"d":100},"b":[1,"x\n",null,true]}"#)
    }

    @Test("parsing rejects what the canonicaliser rejects")
    func parsingErrors() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(#"{"a":1,"a":2}"#.utf8)) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array("[1,]".utf8)) }
    }

    @Test("escapes decode to the characters they stand for")
    func escapes() throws {
        let value = try JSONValue(parsing: Array(#"["\"\\\/\b\f\n\r\t\u0001\u001f\u00e9\ud83d\ude02"]"#.utf8))
        #expect(value == .array([.string("\"\\/\u{8}\u{C}\n\r\t\u{1}\u{1F}é😂")]))
    }

    @Test("keys that are canonically equivalent in Swift are different JSON names")
    func unnormalisedKeys() throws {
        let composed = JSONValue.object([JSONMember(key: "\u{C5}", value: .null)])
        let decomposed = JSONValue.object([JSONMember(key: "A\u{30A}", value: .null)])
        #expect("\u{C5}" == "A\u{30A}")  // what Swift's String == says
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(JSONValue.string("\u{C5}") != .string("A\u{30A}"))
        #expect(JSONMember(key: "\u{C5}", value: .null) != JSONMember(key: "A\u{30A}", value: .null))

        let both = try JSONValue(parsing: Array(#"{"\u00C5":1,"A\u030A":2}"#.utf8))
        guard case .object(let members) = both else {
            Issue.record("expected an object")
            return
        }
        #expect(members.count == 2)
        #expect(members.map { Array($0.key.unicodeScalars) } == [["A", "\u{30A}"], ["\u{C5}"]])
    }

    @Test("object equality and hashing ignore member order")
    func memberOrder() {
        let ab = JSONValue.object([JSONMember(key: "a", value: .number("1")), JSONMember(key: "b", value: .null)])
        let ba = JSONValue.object([JSONMember(key: "b", value: .null), JSONMember(key: "a", value: .number("1"))])
        #expect(ab == ba)
        #expect(ab.hashValue == ba.hashValue)
        #expect(ab.canonicalText == ba.canonicalText)
        #expect(ab != .object([JSONMember(key: "a", value: .number("1"))]))
        #expect(JSONValue.array([.null, .bool(true)]) != .array([.bool(true), .null]))
    }

    @Test("values of different kinds are never equal")
    func kinds() {
        let values: [JSONValue] = [.null, .bool(false), .number("0"), .string(""), .array([]), .object([])]
        for (i, left) in values.enumerated() {
            for (j, right) in values.enumerated() {
                #expect((left == right) == (i == j))
            }
        }
    }

    @Test("canonicalText sorts members built in code by UTF-16 order and escapes strings")
    func canonicalTextOfBuiltValues() {
        let value = JSONValue.object([
            JSONMember(key: "\u{FB33}", value: .string("tab\there")),
            JSONMember(key: "\u{1F602}", value: .array([.number("12345678901234567890")])),
            JSONMember(key: "\u{1}", value: .bool(false)),
        ])
        #expect(value.canonicalText == "{\"\\u0001\":false,\"\u{1F602}\":[12345678901234567890],\"\u{FB33}\":\"tab\\there\"}")
    }

    @Test("the deepest accepted nesting parses, compares, diffs and prints")
    func deepNesting() throws {
        let text = String(repeating: "[{\"a\":", count: 256) + "1" + String(repeating: "}]", count: 256)
        let value = try JSONValue(parsing: Array(text.utf8))
        let other = try JSONValue(parsing: Array(text.replacingOccurrences(of: "1", with: "2").utf8))
        #expect(value.canonicalText == text)
        #expect(value != other)
        #expect(value.hashValue == (try JSONValue(parsing: Array(text.utf8))).hashValue)
        let differences = value.differences(to: other)
        #expect(differences.count == 1)
        #expect(differences.first?.pointer == String(repeating: "/0/a", count: 256))
    }

    @Test("large integers survive parsing exactly")
    func bigIntegers() throws {
        let value = try JSONValue(parsing: Array("[9007199254740993, 9007199254740992]".utf8))
        #expect(value == .array([.number("9007199254740993"), .number("9007199254740992")]))
    }
}
