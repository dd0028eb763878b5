import PropertyBased
import Testing
import TonearmWorkloads

@testable import Tonearm

/// Properties of the URL and form normalisation over generated input.
@Suite("URL and form properties")
struct URLPropertyTests {
    /// Characters that exercise every branch: unreserved, sub-delims, separators, escapes, "+", "%",
    /// space, non-ASCII and controls. Escapes appear as whole strings so that valid ones are common.
    static let componentPieces: [String] = [
        "a", "Z", "0", "-", ".", "_", "~", "!", "$", "'", "(", "*", ",", ";", ":", "@", "/", "?", "+", " ",
        "%", "%2", "%41", "%7e", "%7E", "%2B", "%2b", "%20", "%3D", "%26", "%C3%A9", "%zz", "é", "😀", "\u{1}",
        "[", "\"", "\\", "..", "=",
    ]

    static let component = Gen<String?>.element(of: componentPieces).map { $0 ?? "" }.array(of: 0...6)
        .map { $0.joined() }

    /// A raw piece of a query: name and value, both free of "&"; the name also free of "=".
    static let rawPair = zip(component, component).map { name, value in
        (
            replacingAll("=", in: replacingAll("&", in: name, with: "%26"), with: "%3D"),
            replacingAll("&", in: value, with: "%26")
        )
    }

    static func canonical(_ text: String) -> [UInt8] {
        var text = text
        let pairs = text.withUTF8 { FormEncoding.canonicalPairs(UnsafeRawBufferPointer($0), ignoring: []) }
        var output: [UInt8] = []
        FormEncoding.serialize(pairs, appendingTo: &output)
        var direct: [UInt8] = []
        text.withUTF8 { FormEncoding.appendCanonical(UnsafeRawBufferPointer($0), ignoring: [], to: &direct) }
        #expect(direct == output)
        return output
    }

    static func join(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    @Test("canonical pairs do not depend on the order of the pairs")
    func permutationInvariance() async {
        await propertyCheck(input: Self.rawPair.array(of: 0...8), Gen.uint64(in: 0...UInt64.max)) { pairs, seed in
            var generator = SeededRandom(seed: seed)
            let shuffled = pairs.shuffled(using: &generator)
            #expect(Self.canonical(Self.join(pairs)) == Self.canonical(Self.join(shuffled)))
            var copy = Self.join(pairs)
            let sortedPairs = copy.withUTF8 { FormEncoding.canonicalPairs(UnsafeRawBufferPointer($0), ignoring: []) }
            #expect(sortedPairs == FormEncoding.pairs(Self.join(shuffled)).sorted())
        }
    }

    @Test("changing any name or value changes the canonical serialisation")
    func changesAreVisible() async {
        await propertyCheck(
            input: Self.rawPair.array(of: 1...8), Gen.int(in: 0...1000), Gen.bool,
            Gen<String?>.element(of: ["z", "+", "%2B", "é", "%", "~", " "]).map { $0 ?? "z" }
        ) { pairs, position, changeName, addition in
            var changed = pairs
            let index = position % pairs.count
            // Appending to the raw text appends the decoded byte(s) of `addition`, since none of the additions
            // can complete an escape begun by the text before it ("%" only starts a new one).
            if changeName {
                changed[index].0 += addition == "%" ? "%25" : addition
            } else {
                changed[index].1 += addition == "%" ? "%25" : addition
            }
            #expect(Self.canonical(Self.join(pairs)) != Self.canonical(Self.join(changed)))
        }
    }

    @Test("serialised canonical pairs read back to the same pairs")
    func serializationRoundTrip() async {
        await propertyCheck(input: Self.rawPair.array(of: 0...8)) { pairs in
            let text = Self.join(pairs)
            let canonical = FormEncoding.pairs(text)
            var output: [UInt8] = []
            FormEncoding.serialize(canonical, appendingTo: &output)
            #expect(FormEncoding.pairs(String(decoding: output, as: UTF8.self)) == canonical)
            // And canonical text is a fixed point of canonicalisation.
            for pair in canonical { #expect(FormEncoding.canonicalName(pair.name) == pair.name) }
        }
    }

    static let schemes = ["http://", "HTTPS://", "ws://", "wss://", "ftp://", "mailto:", "", "//", "x:"]
    static let userinfos = ["", "user:pw@", "a@b@"]
    static let hosts = ["Example.COM", "[::1]", "[2001:DB8::1]", "h%41st", "a:1", "", "[::1", "ex ample"]
    static let ports = [
        "", ":", ":80", ":443", ":0080", ":8080", ":x", ":99999999999999999999", ":%38%30", ":8%30", ":%30%38%30%38",
        ":%3", ":%", ":%38x", ":%2F",
    ]
    static let pathPieces = ["/", "/a", "/.", "/..", "/%2e", "/%2F", "//", "/b/", "?", "#"] + componentPieces
    static let tails = ["", "?", "?a=1&b", "?x #f", "#frag", "?q=%7e+é"]
    static let paddings = ["", " ", "\t", "\n "]

    /// URLs assembled from plausible parts, so that most have every component. The parts are picked by
    /// generated numbers, which keeps the generator simple and still lets failures shrink.
    static let assembledURL = Gen.int(in: 0...1_000_000).array(of: 16).map { picks -> String in
        func pick(_ options: [String], _ index: Int) -> String { options[picks[index] % options.count] }
        let path = (0..<(picks[5] % 9)).map { pick(pathPieces, 6 + $0) }.joined()
        let padding = pick(paddings, 15)
        return padding + pick(schemes, 0) + pick(userinfos, 1) + pick(hosts, 2) + pick(ports, 3) + path
            + pick(tails, 4) + padding
    }

    static let anyText = Gen<Character>.ascii.string(of: 0...40)

    /// Normalising a normalised URL gives it back unchanged, and so does canonicalising the canonical
    /// `url` and `query` values put back together: the key of a canonical request is its own key.
    static func assertIdempotent(_ input: String) {
        let once = NormalizedURL(input)
        let again = NormalizedURL(once.description)
        #expect(again == once, "\(input.debugDescription) gave \(once), then \(again)")
        #expect(again.description == once.description)
        #expect(once.path.hasPrefix("/"))

        let canonicalizer = RequestCanonicalizer(MatchingConfiguration(attributes: [.url, .query]))
        let canonical = canonicalizer.canonicalize(Request(url: input))
        let url = canonical.field(CanonicalLabel.url.description) ?? []
        let query = canonical.field(CanonicalLabel.query.description) ?? []
        let rebuilt = String(decoding: url + [UInt8(ascii: "?")] + query, as: UTF8.self)
        let recanonical = canonicalizer.canonicalize(Request(url: rebuilt))
        #expect(recanonical.bytes == canonical.bytes, "\(input.debugDescription) gave \(canonical), then \(recanonical)")
    }

    @Test("normalising assembled URLs is idempotent")
    func idempotenceOfAssembledURLs() async {
        await propertyCheck(count: 500, input: Self.assembledURL) { Self.assertIdempotent($0) }
    }

    @Test("normalising arbitrary text is idempotent")
    func idempotenceOfAnyText() async {
        await propertyCheck(count: 500, input: Self.anyText) { Self.assertIdempotent($0) }
        await propertyCheck(count: 200, input: Gen<Character>.latin1.string(of: 0...20)) { Self.assertIdempotent($0) }
    }


    /// `text` with every `target` replaced, without Foundation, which the properties do not otherwise need.
    static func replacingAll(_ target: Character, in text: String, with replacement: String) -> String {
        var result = ""
        for character in text {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
