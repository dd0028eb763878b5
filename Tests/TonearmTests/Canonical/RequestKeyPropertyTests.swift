import PropertyBased
import Testing
import TonearmWorkloads
@testable import Tonearm

/// Invariants users rely on when they replay: what must not change a key, and what must.
@Suite("Request key properties")
struct RequestKeyPropertyTests {
    static let names = ["page", "sort", "q", "lang", "id", "tag", "cursor", "a", "b"]
    static let values = ["1", "2", "name", "a%20b", "caf%C3%A9", "x~y", "", "10"]
    static let pairGen = zip(Gen.int(in: 0...(names.count - 1)), Gen.int(in: 0...(values.count - 1)))
        .map { names[$0.0] + "=" + values[$0.1] }

    static func get(_ pairs: [String]) -> Request {
        Request(method: "GET", url: "https://api.example.com/items" + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")))
    }

    static func json(_ members: [(String, Int)], spaced: Bool) -> Request {
        let body = "{" + members.map { "\"\($0.0)\"" + (spaced ? " : " : ":") + "\($0.1)" }
            .joined(separator: spaced ? " ,\n  " : ",") + "}"
        return Request(method: "POST", url: "https://api.example.com/items",
                       headers: [HTTPField("Content-Type", "application/json")], body: body)
    }

    @Test("keys do not change when query parameters are permuted")
    func queryPermutation() async {
        await propertyCheck(input: Self.pairGen.array(of: 0...8), Gen.int(in: 0...1_000)) { pairs, seed in
            var random = SeededRandom(seed: UInt64(seed))
            let shuffled = pairs.shuffled(using: &random)
            let canonicalizer = RequestCanonicalizer()
            #expect(canonicalizer.key(for: Self.get(pairs)) == canonicalizer.key(for: Self.get(shuffled)))
        }
    }

    @Test("keys do not change when JSON members are reordered or re-spaced")
    func jsonReordering() async {
        let memberGen = zip(Gen.int(in: 0...(Self.names.count - 1)), Gen.int(in: -1_000...1_000)).array(of: 0...8)
        await propertyCheck(input: memberGen) { raw in
            var seen = Set<String>()
            let members = raw.compactMap { seen.insert(Self.names[$0.0]).inserted ? (Self.names[$0.0], $0.1) : nil }
            let canonicalizer = RequestCanonicalizer()
            #expect(canonicalizer.key(for: Self.json(members, spaced: false))
                == canonicalizer.key(for: Self.json(members.reversed(), spaced: true)))
        }
    }

    @Test("changing any included value changes the key")
    func valuesMatter() async {
        await propertyCheck(input: Self.pairGen.array(of: 1...6), Gen.int(in: 0...5)) { pairs, which in
            let index = which % pairs.count
            var changed = pairs
            changed[index] += "x"
            let canonicalizer = RequestCanonicalizer()
            let base = Self.get(pairs)
            #expect(canonicalizer.key(for: base) != canonicalizer.key(for: Self.get(changed)), "query value")
            var method = base
            method.method = "DELETE"
            #expect(canonicalizer.key(for: base) != canonicalizer.key(for: method), "method")
            var path = base
            path.url = path.url.replacing("/items", with: "/items2")
            #expect(canonicalizer.key(for: base) != canonicalizer.key(for: path), "path")
            var host = base
            host.url = host.url.replacing("api.example.com", with: "api.example.org")
            #expect(canonicalizer.key(for: base) != canonicalizer.key(for: host), "host")
        }
    }

    @Test("ignored JSON fields: random request ids still match")
    func ignoredJSONField() async throws {
        let configuration = MatchingConfiguration(ignoredJSONFields: [try JSONPointer("/meta/requestId"), try JSONPointer("/nonce")])
        let canonicalizer = RequestCanonicalizer(configuration)
        func body(_ id: String, _ nonce: Int) -> Request {
            Request(method: "POST", url: "https://api.example.com/pay", headers: [HTTPField("Content-Type", "application/json")],
                    body: #"{"amount":5,"nonce":\#(nonce),"meta":{"requestId":"\#(id)","client":"ios"}}"#)
        }
        await propertyCheck(input: Gen.letterOrNumber.string(of: 1...24), Gen.int(in: 0...Int.max)) { id, nonce in
            #expect(canonicalizer.key(for: body(id, nonce)) == canonicalizer.key(for: body("fixed", 0)))
        }
        var other = body("x", 1)
        other.body = Array(#"{"amount":6,"nonce":1,"meta":{"requestId":"x","client":"ios"}}"#.utf8)
        #expect(canonicalizer.key(for: other) != canonicalizer.key(for: body("x", 1)), "other fields still count")
    }

    @Test("ignored query parameters: cache busters never matter")
    func ignoredQueryParameter() async {
        let canonicalizer = RequestCanonicalizer(MatchingConfiguration(ignoredQueryParameters: ["_", "timestamp"]))
        await propertyCheck(input: Gen.int(in: 0...Int.max)) { stamp in
            let live = Request(url: "https://api.example.com/feed?page=2&_=\(stamp)&timestamp=\(stamp)")
            #expect(canonicalizer.key(for: live) == canonicalizer.key(for: Request(url: "https://api.example.com/feed?page=2")))
        }
    }

    @Test("invalid JSON under a JSON content type falls back to raw bytes with a note")
    func invalidJSONFallsBack() {
        let request = Request(method: "POST", url: "https://h.example/", headers: [HTTPField("Content-Type", "application/json")], body: #"{"a":1,}"#)
        let canonical = RequestCanonicalizer().canonicalize(request)
        #expect(canonical.bodyKind == .raw)
        #expect(canonical.field(CanonicalLabel.rawBody.description) == Array(#"{"a":1,}"#.utf8))
        #expect(canonical.notes.count == 1)
        #expect(canonical.notes.first?.message.contains("did not parse") == true)
    }

    @Test("headers take part only when configured, case-insensitively")
    func headersOnlyWhenConfigured() {
        let plain = RequestCanonicalizer()
        let withAccept = RequestCanonicalizer(MatchingConfiguration(attributes: [.method, .url, .header("Accept")]))
        let json = Request(url: "https://h.example/", headers: [HTTPField("Accept", "application/json")])
        let html = Request(url: "https://h.example/", headers: [HTTPField("accept", "text/html")])
        #expect(plain.key(for: json) == plain.key(for: html))
        #expect(withAccept.key(for: json) != withAccept.key(for: html))
        let shouting = Request(url: "https://h.example/", headers: [HTTPField("ACCEPT", "  application/json ")])
        #expect(withAccept.key(for: json) == withAccept.key(for: shouting))
    }
}

