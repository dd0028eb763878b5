import Testing

@testable import Tonearm

/// Table tests for the canonical query and form pairs of ``FormEncoding`` and ``FormPair``.
@Suite("FormEncoding")
struct FormEncodingTests {
    /// The canonical serialisation of `text`, the way keys are built.
    /// Also checks that the allocation-free key path writes the same bytes as the public API.
    static func canonical(_ text: String, ignoring: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var text = text
        let pairs = text.withUTF8 { FormEncoding.canonicalPairs(UnsafeRawBufferPointer($0), ignoring: ignoring) }
        var output: [UInt8] = []
        FormEncoding.serialize(pairs, appendingTo: &output)
        var direct: [UInt8] = Array("k?".utf8)
        text.withUTF8 { FormEncoding.appendCanonical(UnsafeRawBufferPointer($0), ignoring: ignoring, to: &direct) }
        #expect(direct == Array("k?".utf8) + output, sourceLocation: sourceLocation)
        return String(decoding: output, as: UTF8.self)
    }

    static func serialized(_ pairs: [FormPair]) -> String {
        var output: [UInt8] = []
        FormEncoding.serialize(pairs, appendingTo: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test(
        "spellings that decode alike are equal",
        arguments: [
            ("a=b+c", "a=b%20c"),  // "+" is a space
            ("a+b=1", "a%20b=1"),  // in names too
            ("a=b=c", "a=b%3Dc"),  // the first "=" splits
            ("a=%7e", "a=~"), ("a=%7E", "a=~"), ("%61=1", "a=1"),
            ("q=caf%C3%A9", "q=café"), ("q=caf%c3%a9", "q=café"),
            ("a=%2f", "a=/"), ("a=%2F", "a=/"),  // unlike paths, "/" in a value is data
            ("a=1;b=2", "a=1%3Bb%3D2"),  // ";" is no separator
            ("a", "a="),  // a bare name has an empty value
            ("b=2&a=1", "a=1&b=2"),  // order does not matter
            ("a=1&&b=2&", "a=1&b=2"),  // empty pieces are skipped
            ("&&", ""), ("", ""),
            ("a=%zz", "a=%25zz"), ("a=%", "a=%25"), ("a=%4", "a=%254"),  // invalid escapes are a literal "%"
            ("a=b\u{0}c", "a=b%00c"), ("k=\u{1F600}", "k=%F0%9F%98%80"),
            ("=", "="), ("=x", "=x"),  // an empty name is still a pair
        ])
    func equalSpellings(_ lhs: String, _ rhs: String) {
        #expect(Self.canonical(lhs) == Self.canonical(rhs))
    }

    @Test(
        "spellings that decode differently stay distinct",
        arguments: [
            ("a=b+c", "a=b%2Bc"),  // a literal plus must be sent as %2B
            ("a", ""),  // absent is not empty
            ("a=", ""),
            ("a=1", "A=1"),  // names are case-sensitive
            ("a=%2F", "a=%252F"),  // one level of decoding only
            ("id=3&id=9", "id=3"),  // duplicates are kept
            ("id=3&id=9", "id=9&id=9"),
            ("a=b=c", "a=b&c"),
        ])
    func distinctSpellings(_ lhs: String, _ rhs: String) {
        #expect(Self.canonical(lhs) != Self.canonical(rhs))
    }

    @Test(
        "canonical text: unreserved literal, everything else %XX uppercase",
        arguments: [
            ("AZaz09-._~=AZaz09-._~", "AZaz09-._~=AZaz09-._~"),
            ("a=!$'()*,;:@/?", "a=%21%24%27%28%29%2A%2C%3B%3A%40%2F%3F"),
            ("a=é", "a=%C3%A9"), ("a=%c3%a9", "a=%C3%A9"), ("a=%41", "a=A"),
            ("filter[id]=1", "filter%5Bid%5D=1"), ("a=b+c", "a=b%20c"), ("a=%2B", "a=%2B"),
            ("a=%25", "a=%25"), ("a=%25zz", "a=%25zz"),
        ])
    func canonicalText(input: String, expected: String) {
        #expect(Self.canonical(input) == expected)
    }

    @Test("pairs keep their original order and duplicates")
    func originalOrder() {
        let pairs = FormEncoding.pairs("id=9&b&id=3&a=%7e+x")
        #expect(pairs.map(\.name) == ["id", "b", "id", "a"])
        #expect(pairs.map(\.value) == ["9", "", "3", "~%20x"])
        #expect(pairs.map(\.decodedValue) == ["9", "", "3", "~ x"])
    }

    @Test("canonical pairs sort by name, then value, keeping duplicates")
    func sorting() {
        #expect(Self.canonical("id=9&id=3&b=2&a=1&id=10") == "a=1&b=2&id=10&id=3&id=9")
        #expect(Self.canonical("x=1&x=1") == "x=1&x=1")
        // Names that share their first 8 bytes, or are prefixes of each other.
        #expect(
            Self.canonical("abcdefghZ=1&abcdefgh=2&abcdefg=3&abcdefghA=4&abcdefgh=1&abcdefgh%20=0")
                == "abcdefg=3&abcdefgh=1&abcdefgh=2&abcdefgh%20=0&abcdefghA=4&abcdefghZ=1")
    }

    @Test("sorting is by canonical bytes, not by Unicode order of the decoded text")
    func byteOrder() {
        // Decoded, "é" (U+00E9) sorts after "z"; canonical "%C3%A9" starts with "%" (0x25), which sorts first.
        #expect(Self.canonical("z=1&é=2&Z=3&_=4&~=5&0=6") == "%C3%A9=2&0=6&Z=3&_=4&z=1&~=5")
        // Hand-made pairs with decomposed text: String says these are equal, bytes say "e" (0x65) < 0xC3.
        let precomposed = FormPair(name: "\u{E9}", value: "")
        let decomposed = FormPair(name: "e\u{301}", value: "")
        #expect(precomposed.name == decomposed.name)  // String equality: canonical equivalence
        #expect(precomposed != decomposed)
        #expect(decomposed < precomposed)
        #expect(!(precomposed < decomposed))
    }

    @Test(
        "ignored names are matched after canonicalising them too",
        arguments: [
            ("a=1&cache%20buster=2&b=3", ["cache buster"], "a=1&b=3"),
            ("a=1&cache+buster=2&b=3", ["cache%20buster"], "a=1&b=3"),
            ("a=1&cache buster=2&b=3", ["cache+buster"], "a=1&b=3"),
            ("a=1&filter%5Bid%5D=2", ["filter[id]"], "a=1"),
            ("t=1&t=2&a=1", ["t"], "a=1"),  // every occurrence goes
            ("t&a=1", ["t"], "a=1"),
            ("a=1&A=2", ["A"], "a=1"),  // case-sensitive
            ("a=1&b=2", ["c", "d"], "a=1&b=2"),
            ("a=1&b=2", ["a", "b"], ""),
            ("%7e=1&b=2", ["~"], "b=2"), ("~=1&b=2", ["%7E"], "b=2"),
        ] as [(String, Set<String>, String)])
    func ignoredNames(input: String, ignoring: Set<String>, expected: String) {
        #expect(Self.canonical(input, ignoring: ignoring) == expected)
    }

    @Test(
        "canonicalName applies the query rules to one name",
        arguments: [
            ("cache buster", "cache%20buster"), ("cache+buster", "cache%20buster"), ("cache%20buster", "cache%20buster"),
            ("%7e", "~"), ("é", "%C3%A9"), ("a=b", "a%3Db"), ("a&b", "a%26b"), ("100%", "100%25"), ("", ""),
        ])
    func canonicalName(name: String, expected: String) {
        #expect(FormEncoding.canonicalName(name) == expected)
    }

    @Test("serialize writes name=value joined by &, and reads back to the same pairs")
    func serializeRoundTrip() {
        let pairs = FormEncoding.pairs("b&a=1&c=x%20y&long_parameter_name=a+fairly+long+value+here")
        let text = Self.serialized(pairs)
        #expect(text == "b=&a=1&c=x%20y&long_parameter_name=a%20fairly%20long%20value%20here")
        #expect(FormEncoding.pairs(text) == pairs)
        var output: [UInt8] = Array("prefix?".utf8)
        FormEncoding.serialize([], appendingTo: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix?")
        FormEncoding.serialize([FormPair(name: "a", value: "1")], appendingTo: &output)
        #expect(String(decoding: output, as: UTF8.self) == "prefix?a=1")
    }

    @Test("the String, Substring and byte entry points agree")
    func entryPoints() {
        let text = "x=1&y=%7E&z"
        var copy = text
        let fromBytes = copy.withUTF8 { FormEncoding.pairs(UnsafeRawBufferPointer($0)) }
        #expect(FormEncoding.pairs(text) == fromBytes)
        #expect(FormEncoding.pairs(("?" + text).dropFirst()) == fromBytes)
        #expect(FormEncoding.pairs(UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
        #expect(FormEncoding.canonicalPairs(UnsafeRawBufferPointer(start: nil, count: 0), ignoring: ["a"]).isEmpty)
    }

    @Test("decoded names and values are for people")
    func decoded() {
        let pair = FormEncoding.pairs("caf%C3%A9+au+lait=100%25+%zz")[0]
        #expect(pair.decodedName == "café au lait")
        #expect(pair.decodedValue == "100% %zz")
        #expect(pair.description == "caf%C3%A9%20au%20lait=100%25%20%25zz")
        #expect(FormPair(name: "%FF", value: "").decodedName == "\u{FFFD}")  // invalid UTF-8 is replaced
    }

    /// Names and values up to 16 bytes are stored inline, longer ones in a buffer: both forms must compare,
    /// hash and serialise the same way, also across the boundary.
    @Test(
        "short and long texts behave alike",
        arguments: [0, 1, 7, 8, 9, 15, 16, 17, 31, 40])
    func textLengths(length: Int) {
        let name = String(repeating: "n", count: length)
        let value = String(repeating: "v", count: length) + "%7e"
        let parsed = FormEncoding.pairs("\(name)=\(value)&\(name)x=\(value)y")
        #expect(parsed.count == 2)
        let made = FormPair(name: name, value: String(repeating: "v", count: length) + "~")
        #expect(parsed[0] == made)
        #expect(parsed[0].hashValue == made.hashValue)
        #expect(parsed[0].name == name)
        #expect(parsed[0] < parsed[1])
        #expect(!(parsed[1] < parsed[0]))
        #expect(Self.serialized(parsed) == "\(name)=\(made.value)&\(name)x=\(made.value)y")
        let sorted = FormEncoding.pairs("\(name)x=\(value)y&\(name)=\(value)").sorted()
        #expect(sorted == parsed)
    }

    @Test("pairs compare by name first, then value, by bytes")
    func pairOrder() {
        let ordered = [
            FormPair(name: "", value: "z"), FormPair(name: "a", value: ""), FormPair(name: "a", value: "0"),
            FormPair(name: "a", value: "0000000000000000001"), FormPair(name: "a", value: "1"),
            FormPair(name: "a0", value: ""), FormPair(name: "aaaaaaaaaaaaaaaaaaaa", value: ""), FormPair(name: "b", value: ""),
        ]
        for (i, lhs) in ordered.enumerated() {
            for (j, rhs) in ordered.enumerated() {
                #expect((lhs < rhs) == (i < j), "\(lhs) < \(rhs)")
                #expect((lhs == rhs) == (i == j), "\(lhs) == \(rhs)")
            }
        }
    }

    @Test("setting a name or value replaces only it")
    func setters() {
        var pair = FormEncoding.pairs("a=1")[0]
        pair.value = "a-value-longer-than-sixteen-bytes"
        #expect(pair.name == "a")
        pair.name = "x"
        #expect(pair.description == "x=a-value-longer-than-sixteen-bytes")
        #expect(pair == FormPair(name: "x", value: "a-value-longer-than-sixteen-bytes"))
    }

    @Test("many pairs sort like few", arguments: [2, 16, 17, 100])
    func manyPairs(count: Int) {
        let names = (0..<count).map { "p\(($0 * 7919) % count)" }
        let text = names.enumerated().map { "\($0.element)=\($0.offset)" }.joined(separator: "&")
        let pairs = text.utf8.withContiguousStorageIfAvailable {
            FormEncoding.canonicalPairs(UnsafeRawBufferPointer($0), ignoring: [])
        }
        #expect(pairs == FormEncoding.pairs(text).sorted())
        #expect(pairs?.count == count)
    }
}
