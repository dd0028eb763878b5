import Testing

@testable import Tonearm

@Suite("JSONCanonicalizer")
struct JSONCanonicalizerTests {
    @Test(
        "numbers are written as ECMAScript prints their double",
        arguments: [
            ("1.0", "1"), ("4.50", "4.5"), ("1E30", "1e+30"), ("1e21", "1e+21"), ("1e20", "100000000000000000000"),
            ("0.00001", "0.00001"), ("1e-7", "1e-7"), ("0.000001", "0.000001"), ("1e-6", "0.000001"),
            ("-0", "0"), ("-0.0", "0"), ("0e10", "0"), ("-0E-5", "0"), ("333333333.33333329", "333333333.3333333"),
            ("2e-3", "0.002"), ("0.000000000000000000000000001", "1e-27"), ("123.456e2", "12345.6"),
            ("0.1", "0.1"), ("100", "100"), ("-12", "-12"), ("1.5E+2", "150"), ("12e-1", "1.2"),
            ("999999999999999999999.0", "1e+21"), ("123456789012345678901.5", "123456789012345680000"),
            ("5e-324", "5e-324"), ("4.9406564584124654e-324", "5e-324"), ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("2.2250738585072014e-308", "2.2250738585072014e-308"), ("1e-400", "0"), ("-1e-400", "0"),
            ("0.30000000000000004", "0.30000000000000004"), ("1.00000000000000000000001", "1"),
            ("9007199254740993.0", "9007199254740992"), ("1e15", "1000000000000000"), ("1.23456789012345e-7", "1.23456789012345e-7"),
            ("-1.5e-7", "-1.5e-7"), ("100000000000000000000000000000000000000000e-20", "1e+21"), ("10000000000000000000000000000000000000000e-20", "100000000000000000000"),
        ])
    func numbers(input: String, expected: String) throws {
        #expect(try JSONTesting.canonical(input) == expected)
        #expect(try JSONTesting.canonical("[\(input)]") == "[\(expected)]")
    }

    @Test("integers above 2^53 are kept verbatim, so neighbours stay distinct")
    func bigIntegers() throws {
        let a = try JSONTesting.canonical("{\"id\": 9007199254740993}")
        let b = try JSONTesting.canonical("{\"id\": 9007199254740992}")
        #expect(a == "{\"id\":9007199254740993}")
        #expect(b == "{\"id\":9007199254740992}")
        #expect(a != b)
        #expect(try JSONTesting.canonical("12345678901234567890") == "12345678901234567890")
        #expect(try JSONTesting.canonical("-12345678901234567890") == "-12345678901234567890")
        #expect(try JSONTesting.canonical("[100000000000000000000000000000000000]") == "[100000000000000000000000000000000000]")
        // With a fraction or exponent the literal is a double again, as RFC 8785 says.
        #expect(try JSONTesting.canonical("9007199254740993.0") == "9007199254740992")
        #expect(try JSONTesting.canonical("12345678901234567890e0") == "12345678901234567000")
    }

    @Test("numbers that grow in canonical form never overrun the output")
    func growingNumbers() throws {
        // Each "1e20" becomes 21 digits: the output is over four times the input.
        let count = 2000
        let input = "[" + Array(repeating: "1e20", count: count).joined(separator: ",") + ",\"\(String(repeating: "x", count: 100))\"]"
        let expected = "[" + Array(repeating: "100000000000000000000", count: count).joined(separator: ",") + ",\"\(String(repeating: "x", count: 100))\"]"
        #expect(try JSONTesting.canonical(input) == expected)
        let ignored = try JSONTesting.canonical("[" + Array(repeating: "{\"a\":1E-6}", count: count).joined(separator: ",") + "]", ignoring: ["/*/b"])
        #expect(ignored == "[" + Array(repeating: "{\"a\":0.000001}", count: count).joined(separator: ",") + "]")
        let nulls = try JSONTesting.canonical("[" + Array(repeating: "0", count: count).joined(separator: ",") + "]", ignoring: ["/*"])
        #expect(nulls == "[" + Array(repeating: "null", count: count).joined(separator: ",") + "]")
    }

    @Test("strings keep UTF-8 as is and escape only quote, backslash and controls")
    func strings() throws {
        #expect(try JSONTesting.canonical(#""\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/""#) == #""€$\u000f\nA'B\"\\\\\"/""#)
        #expect(try JSONTesting.canonical(#""\b\f\n\r\t\u0000\u001F\u007F\u0080""#) == "\"\\b\\f\\n\\r\\t\\u0000\\u001f\u{7F}\u{80}\"")
        #expect(try JSONTesting.canonical(#""\ud83d\ude02\uD834\uDD1E""#) == "\"😂𝄞\"")
        #expect(try JSONTesting.canonical("\"A\\u030a\"") == "\"A\u{30A}\"")
        #expect(try JSONTesting.canonical("\"</script>\"") == "\"</script>\"")
        let long = String(repeating: "abcdefghij", count: 100)
        #expect(try JSONTesting.canonical("\"\(long)\\n\(long)\"") == "\"\(long)\\n\(long)\"")
    }

    @Test("members are sorted by UTF-16 code units, not by scalars or UTF-8")
    func utf16Order() throws {
        // U+FB33 (BMP, above the surrogates) sorts after U+1F602 (a surrogate pair) in UTF-16,
        // although its scalar value and UTF-8 bytes are smaller.
        let input = "{\"\u{FB33}\":1,\"\u{1F602}\":2,\"\u{E000}\":3,\"\u{D7FF}\":4,\"\u{10000}\":5}"
        #expect(try JSONTesting.canonical(input) == "{\"\u{D7FF}\":4,\"\u{10000}\":5,\"\u{1F602}\":2,\"\u{E000}\":3,\"\u{FB33}\":1}")
        // Escaped names sort by the character they stand for, not by the backslash.
        #expect(try JSONTesting.canonical("{\"a\":1,\"\\n\":2,\"\\\"\":3,\"\\\\\":4,\" \":5}") == "{\"\\n\":2,\" \":5,\"\\\"\":3,\"\\\\\":4,\"a\":1}")
        #expect(try JSONTesting.canonical("{\"ab\":1,\"a\":2,\"\":3}") == "{\"\":3,\"a\":2,\"ab\":1}")
    }

    @Test("canonically equivalent but different names stay distinct")
    func unnormalisedKeysStayDistinct() throws {
        let output = try JSONTesting.canonical("{\"\\u00C5\":1,\"A\\u030A\":2}")
        #expect(Array(output.utf8) == Array("{\"A\u{30A}\":2,\"\u{C5}\":1}".utf8))
        let first = try JSONTesting.canonical("{\"\\u00C5\":1}")
        let second = try JSONTesting.canonical("{\"A\\u030A\":1}")
        #expect(!Array(first.utf8).elementsEqual(Array(second.utf8)))
    }

    @Test("nested structures are sorted at every level and arrays keep their order")
    func nesting() throws {
        let input = #"{"z":[3,{"y":1,"x":[{"b":0,"a":0}]},1],"a":{"d":{},"c":[]}}"#
        #expect(try JSONTesting.canonical(input) == #"{"a":{"c":[],"d":{}},"z":[3,{"x":[{"a":0,"b":0}],"y":1},1]}"#)
    }

    // MARK: - Ignored pointers

    @Test("an ignored member is removed wherever it sits")
    func ignoredMember() throws {
        let pointers = ["/meta/requestId", "/token"]
        #expect(try JSONTesting.canonical(#"{"b":1,"meta":{"requestId":"x1","v":2},"token":"t"}"#, ignoring: pointers) == #"{"b":1,"meta":{"v":2}}"#)
        #expect(try JSONTesting.canonical(#"{"token":"t","b":1,"meta":{"requestId":"x1"}}"#, ignoring: pointers) == #"{"b":1,"meta":{}}"#)
        #expect(try JSONTesting.canonical(#"{"meta":{"requestId":[1,{"deep":true}]},"b":1}"#, ignoring: pointers) == #"{"b":1,"meta":{}}"#)
        // Containers that match nothing must not disturb matching in the members after them.
        #expect(try JSONTesting.canonical(#"{"meta":{"a":[{"b":[1]},{}],"requestId":1,"c":{"d":{}}},"token":2}"#, ignoring: pointers) == #"{"meta":{"a":[{"b":[1]},{}],"c":{"d":{}}}}"#)
        #expect(try JSONTesting.canonical(#"{"x":[[{"y":1}],{"z":[]}],"items":[{"k":{"q":1},"id":1},{"id":2,"k":[]}]}"#, ignoring: ["/items/*/id"]) == #"{"items":[{"k":{"q":1}},{"k":[]}],"x":[[{"y":1}],{"z":[]}]}"#)
        // Only the exact path: the same name elsewhere stays.
        #expect(try JSONTesting.canonical(#"{"requestId":1,"x":{"meta":{"requestId":2}}}"#, ignoring: pointers) == #"{"requestId":1,"x":{"meta":{"requestId":2}}}"#)
    }

    @Test("an ignored array element becomes null so later indices keep their meaning")
    func ignoredElement() throws {
        #expect(try JSONTesting.canonical("[1,2,3]", ignoring: ["/1"]) == "[1,null,3]")
        #expect(try JSONTesting.canonical(#"{"items":[{"a":1},{"a":2}]}"#, ignoring: ["/items/0"]) == #"{"items":[null,{"a":2}]}"#)
        #expect(try JSONTesting.canonical("[1,2]", ignoring: ["/5"]) == "[1,2]")
    }

    @Test("a * token matches every member name and every array index")
    func wildcard() throws {
        let input = #"{"items":[{"id":1,"n":"a"},{"id":2,"n":"b"},{"n":"c"}],"other":{"id":3}}"#
        #expect(try JSONTesting.canonical(input, ignoring: ["/items/*/id"]) == #"{"items":[{"n":"a"},{"n":"b"},{"n":"c"}],"other":{"id":3}}"#)
        #expect(try JSONTesting.canonical(input, ignoring: ["/*/id"]) == #"{"items":[{"id":1,"n":"a"},{"id":2,"n":"b"},{"n":"c"}],"other":{}}"#)
        #expect(try JSONTesting.canonical("[[1,2],[3,4]]", ignoring: ["/*/0"]) == "[[null,2],[null,4]]")
        #expect(try JSONTesting.canonical(#"{"a":1,"b":2}"#, ignoring: ["/*"]) == "{}")
    }

    @Test("pointer tokens match escaped and unescaped spellings of the same name")
    func pointerEscapes() throws {
        let input = #"{"a/b":1,"c~d":2,"\u00e9":3,"q\"":4,"k":5}"#
        #expect(try JSONTesting.canonical(input, ignoring: ["/a~1b", "/c~0d", "/é", "/q\""]) == #"{"k":5}"#)
        // A token that is a number also names a member with that name.
        #expect(try JSONTesting.canonical(#"{"0":1,"1":2}"#, ignoring: ["/0"]) == #"{"1":2}"#)
        // "01" is not an array index.
        #expect(try JSONTesting.canonical("[1,2]", ignoring: ["/01"]) == "[1,2]")
    }

    @Test("the empty pointer ignores the whole (still validated) document")
    func rootPointer() throws {
        #expect(try JSONTesting.canonical(#"{"a":1}"#, ignoring: [""]) == "null")
        let canonicalizer = JSONCanonicalizer(ignoring: [try JSONPointer("")])
        #expect(throws: JSONSyntaxError.self) { try canonicalizer.canonicalize(Array("{\"a\":}".utf8)) }
    }

    @Test("ignored parts are still validated")
    func ignoredPartsAreValidated() throws {
        let canonicalizer = JSONCanonicalizer(ignoring: [try JSONPointer("/x")])
        #expect(throws: JSONSyntaxError.self) { try canonicalizer.canonicalize(Array(#"{"x":[1,]}"#.utf8)) }
        #expect(throws: JSONSyntaxError.self) { try canonicalizer.canonicalize(Array(#"{"x":{"a":1,"a":2}}"#.utf8)) }
    }

    @Test("canonicalisers are equal when they ignore the same set of pointers")
    func equality() throws {
        let a = JSONCanonicalizer(ignoring: [try JSONPointer("/a"), try JSONPointer("/b")])
        let b = JSONCanonicalizer(ignoring: [try JSONPointer("/b"), try JSONPointer("/a"), try JSONPointer("/a")])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != JSONCanonicalizer(ignoring: [try JSONPointer("/a")]))
        #expect(JSONCanonicalizer() == JSONCanonicalizer(ignoring: []))
    }

    @Test("ignoring a member that comes first, last or alone leaves well-formed output")
    func ignoredMemberPositions() throws {
        for input in [#"{"x":1,"a":2,"b":3}"#, #"{"a":2,"x":1,"b":3}"#, #"{"a":2,"b":3,"x":1}"#] {
            #expect(try JSONTesting.canonical(input, ignoring: ["/x"]) == #"{"a":2,"b":3}"#)
        }
        #expect(try JSONTesting.canonical(#"{"x":1}"#, ignoring: ["/x"]) == "{}")
        #expect(try JSONTesting.canonical(#"{"x":1,"y":2}"#, ignoring: ["/x", "/y"]) == "{}")
    }
}
