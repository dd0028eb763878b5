import Testing

@testable import Tonearm

@Suite("JSONPointer")
struct JSONPointerTests {
    @Test(
        "RFC 6901 strings parse into unescaped tokens",
        arguments: [
            ("", [String]()), ("/", [""]), ("/a~1b/~0c", ["a/b", "~c"]), ("/items/0", ["items", "0"]),
            ("/~01", ["~1"]), ("/a//b", ["a", "", "b"]), ("/items/*/id", ["items", "*", "id"]), ("/é/😂", ["é", "😂"]),
        ])
    func parsing(text: String, tokens: [String]) throws {
        let pointer = try JSONPointer(text)
        #expect(pointer.tokens == tokens)
        #expect(pointer.description == text)
        #expect(JSONPointer(tokens: tokens) == pointer)
    }

    @Test(
        "malformed pointers are refused with the reason",
        arguments: [
            ("a/b", "it must be empty or start with '/'"),
            ("/a~2", "'~2' is not an escape (only ~0 and ~1 are)"),
            ("/a~", "it ends with '~' (only ~0 and ~1 are escapes)"),
        ])
    func malformed(text: String, reason: String) {
        #expect(throws: JSONPointerError(pointer: text, reason: reason)) { try JSONPointer(text) }
        #expect(JSONPointerError(pointer: text, reason: reason).description == "invalid JSON pointer \"\(text)\": \(reason)")
    }

    @Test("pointers compare tokens by scalars, not by canonical equivalence")
    func scalarEquality() throws {
        let composed = try JSONPointer("/\u{C5}")
        let decomposed = try JSONPointer("/A\u{30A}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(try JSONPointer("/a") == JSONPointer("/a"))
    }
}
