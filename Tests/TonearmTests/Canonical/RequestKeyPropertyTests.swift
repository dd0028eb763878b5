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
                       headers: [HeaderField("Content-Type", "application/json")], body: body)
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
            Request(method: "POST", url: "https://api.example.com/pay", headers: [HeaderField("Content-Type", "application/json")],
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
        let request = Request(method: "POST", url: "https://h.example/", headers: [HeaderField("Content-Type", "application/json")], body: #"{"a":1,}"#)
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
        let json = Request(url: "https://h.example/", headers: [HeaderField("Accept", "application/json")])
        let html = Request(url: "https://h.example/", headers: [HeaderField("accept", "text/html")])
        #expect(plain.key(for: json) == plain.key(for: html))
        #expect(withAccept.key(for: json) != withAccept.key(for: html))
        let shouting = Request(url: "https://h.example/", headers: [HeaderField("ACCEPT", "  application/json ")])
        #expect(withAccept.key(for: json) == withAccept.key(for: shouting))
    }
}


/// The canonical writer against the spec's line format assembled from the components' own APIs, on
/// requests built to stress its precomputed size bound: queries and form bodies of bytes that all grow
/// to escapes, pieces without "=", headers configured twice in different case.
@Suite("Canonical writer")
struct CanonicalWriterPropertyTests {
    static let methods = ["GET", "post", "Delete", "PATCH"]
    static let contentTypes = ["text/plain", "application/x-www-form-urlencoded", "application/octet-stream", ""]

    static func line(_ label: String, _ value: [UInt8]) -> [UInt8] {
        Array(label.utf8) + [0x20] + Array(String(value.count).utf8) + [0x20] + value + [0x0A]
    }

    static func expected(_ request: Request, _ configuration: MatchingConfiguration) -> [UInt8] {
        let url = NormalizedURL(request.url)
        var bytes: [UInt8] = []
        let attributes = configuration.attributes
        if attributes.contains(.method) { bytes += line(CanonicalLabel.method.description, Array(request.method.uppercased().utf8)) }
        if attributes.contains(.url) {
            bytes += line(CanonicalLabel.url.description, Array(url.withoutQuery.utf8))
        } else if attributes.contains(.path) {
            bytes += line(CanonicalLabel.path.description, Array(url.path.utf8))
        }
        if attributes.contains(.query) {
            var query: [UInt8] = []
            FormEncoding.serialize(FormEncoding.pairs(url.query ?? "").sorted(), appendingTo: &query)
            bytes += line(CanonicalLabel.query.description, query)
        }
        for name in configuration.headerNames {
            for value in request.headers.values(named: name) {
                bytes += line(CanonicalLabel.header(name), Array(value.trimmingHTTPWhitespace.utf8))
            }
        }
        if attributes.contains(.body) {
            if !request.body.isEmpty, MediaType.isForm(request.headers.first(named: "content-type") ?? "") {
                var form: [UInt8] = []
                FormEncoding.serialize(FormEncoding.pairs(String(decoding: request.body, as: UTF8.self)).sorted(), appendingTo: &form)
                bytes += line(CanonicalLabel.formBody.description, form)
            } else {
                bytes += line(CanonicalLabel.rawBody.description, request.body)
            }
        }
        return bytes
    }

    static let text = Gen<String?>.element(of: ["+", "é", "\u{1}", "&", "=", "a", "%", "%41", " ", "~"]).map { $0 ?? "" }
        .array(of: 0...12).map { $0.joined() }

    @Test("lines are the spec's format, whatever the request, and key(for:) hashes the same lines")
    func writerMatchesTheFormat() async {
        await propertyCheck(
            count: 300, input: URLPropertyTests.assembledURL, Self.text, Self.text, Gen.int(in: 0...1_000), Gen.int(in: 0...63)
        ) { url, query, body, pick, mask in
            let request = Request(
                method: Self.methods[pick % Self.methods.count], url: url + "?" + query,
                headers: [
                    HeaderField("Content-Type", Self.contentTypes[pick % Self.contentTypes.count]),
                    HeaderField("X-Trace", " \(body) "), HeaderField("x-trace", "second"),
                ],
                body: body)
            let all: [MatchAttribute] = [.method, .url, .path, .query, .body, .header("X-Trace")]
            var attributes = Set(all.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element))
            if mask & 32 != 0 { attributes.insert(.header("x-TRACE")) }
            let configuration = MatchingConfiguration(attributes: attributes)
            let canonicalizer = RequestCanonicalizer(configuration)
            let canonical = canonicalizer.canonicalize(request)
            #expect(canonical.bytes == Self.expected(request, configuration), "\(request)")
            // `key(for:)` writes the same lines in scratch memory of its own.
            #expect(canonicalizer.key(for: request) == RequestKey(canonicalBytes: canonical.bytes), "\(request)")
        }
    }
}
