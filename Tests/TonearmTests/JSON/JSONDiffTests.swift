import Testing

@testable import Tonearm

@Suite("JSONValue.differences")
struct JSONDiffTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: Array(text.utf8))
    }

    @Test("equal documents have no differences, whatever their spelling")
    func equal() throws {
        #expect(try parse(#"{"a":[1,{"b":2.0}]}"#).differences(to: parse(#" { "a" : [ 1 , { "b" : 2 } ] } "#)).isEmpty)
    }

    @Test("added, removed and changed members carry their pointers")
    func members() throws {
        let expected = try parse(#"{"user":{"email":"a@x","name":"A","old":1},"v":1}"#)
        let received = try parse(#"{"user":{"email":"b@x","name":"A","new":true},"v":1}"#)
        #expect(expected.differences(to: received) == [
            JSONDifference(pointer: "/user/email", kind: .changed(from: .string("a@x"), to: .string("b@x"))),
            JSONDifference(pointer: "/user/new", kind: .added(.bool(true))),
            JSONDifference(pointer: "/user/old", kind: .removed(.number("1"))),
        ])
    }

    @Test("names with ~ and / are escaped in pointers")
    func escaping() throws {
        let differences = try parse(#"{"a/b":{"c~d":1}}"#).differences(to: parse(#"{"a/b":{"c~d":2}}"#))
        #expect(differences.map(\.pointer) == ["/a~1b/c~0d"])
        #expect(try JSONPointer(differences[0].pointer).tokens == ["a/b", "c~d"])
    }

    @Test("arrays are compared by index; extra elements are added or removed")
    func arrays() throws {
        #expect(try parse("[1,2,3]").differences(to: parse("[1,5,3,4]")) == [
            JSONDifference(pointer: "/1", kind: .changed(from: .number("2"), to: .number("5"))),
            JSONDifference(pointer: "/3", kind: .added(.number("4"))),
        ])
        #expect(try parse(#"{"items":[{"id":1},{"id":2},{"id":3}]}"#).differences(to: parse(#"{"items":[{"id":1}]}"#)) == [
            JSONDifference(pointer: "/items/1", kind: .removed(.object([JSONMember(key: "id", value: .number("2"))]))),
            JSONDifference(pointer: "/items/2", kind: .removed(.object([JSONMember(key: "id", value: .number("3"))]))),
        ])
    }

    @Test("a change of type is a change of the whole value")
    func typeChanges() throws {
        #expect(try parse(#"{"a":"1"}"#).differences(to: parse(#"{"a":1}"#)) == [
            JSONDifference(pointer: "/a", kind: .changed(from: .string("1"), to: .number("1")))
        ])
        #expect(try parse(#"{"a":[1]}"#).differences(to: parse(#"{"a":{"0":1}}"#)) == [
            JSONDifference(pointer: "/a", kind: .changed(
                from: .array([.number("1")]), to: .object([JSONMember(key: "0", value: .number("1"))])))
        ])
        #expect(try parse("1").differences(to: parse("null")) == [
            JSONDifference(pointer: "", kind: .changed(from: .number("1"), to: .null))
        ])
    }

    @Test("names that only look alike are different members")
    func unnormalisedNames() throws {
        let differences = try parse(#"{"\u00C5":1}"#).differences(to: parse(#"{"A\u030A":1}"#))
        #expect(differences.count == 2)
        #expect(differences.contains(JSONDifference(pointer: "/\u{C5}", kind: .removed(.number("1")))))
        #expect(differences.contains(JSONDifference(pointer: "/A\u{30A}", kind: .added(.number("1")))))
    }

    @Test("members built in code in any order are matched by name")
    func unsortedMembers() {
        let expected = JSONValue.object([JSONMember(key: "b", value: .null), JSONMember(key: "a", value: .number("1"))])
        let received = JSONValue.object([JSONMember(key: "a", value: .number("2")), JSONMember(key: "b", value: .null)])
        #expect(expected.differences(to: received) == [
            JSONDifference(pointer: "/a", kind: .changed(from: .number("1"), to: .number("2")))
        ])
    }

    @Test("descriptions say what changed where")
    func descriptions() {
        #expect(JSONDifference(pointer: "/user/email", kind: .changed(from: .string("a"), to: .string("b"))).description
            == #"changed at /user/email: "a" -> "b""#)
        #expect(JSONDifference(pointer: "/items/2", kind: .added(.number("5"))).description == "added at /items/2: 5")
        #expect(JSONDifference(pointer: "", kind: .removed(.null)).description == "removed at the document root: null")
        let long = JSONDifference(pointer: "/x", kind: .added(.string(String(repeating: "a", count: 500))))
        #expect(long.description.hasSuffix("…"))
        #expect(long.description.count < 230)
    }
}
