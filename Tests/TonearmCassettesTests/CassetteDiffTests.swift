import Foundation
import PropertyBased
import Testing
import Tonearm
@testable import TonearmCassettes
import TonearmTestSupport
import TonearmWorkloads

/// Issue 32, part 3: a re-recording compared by request key, volatile parts left out.
@Suite("Cassette diff")
struct CassetteDiffTests {
    static func json(_ body: String, headers: [HeaderField] = [], status: Int = 200) -> Response {
        Response(status: status, headers: [HeaderField("Content-Type", "application/json")] + headers, body: body)
    }

    static func get(_ path: String, _ response: Response) -> Track {
        Track(request: Request(url: "https://shop.example.com" + path), response: response)
    }

    static func imported(_ tracks: [Track], strategy: StrategyHint? = nil, configuration: MatchingConfiguration = .default) -> CassetteImport {
        CassetteImport(cassette: Cassette(strategy: strategy, entries: tracks.map { CassetteEntry($0) }), configuration: configuration)
    }

    static func diff(_ old: [Track], _ new: [Track], options: CassetteDiffOptions = CassetteDiffOptions()) -> CassetteDiff {
        CassetteDiff(old: imported(old), new: imported(new), options: options)
    }

    static let items = #"{"items":[{"id":1,"price":10},{"id":2,"price":11},{"id":3,"price":12},{"id":4,"price":12.5}],"total":4}"#

    @Test("A re-recording where only dates, request ids, recording times, track order and member order changed has no differences")
    func volatileOnly() throws {
        let folder = try TemporaryFolder()
        try folder.write("old.json", """
            {"formatVersion": 1, "tracks": [
              {"recordedAt": "2024-01-01T09:00:00.000Z", "request": {"method": "GET", "url": "https://shop.example.com/items?page=1&size=4"},
               "response": {"status": 200, "headers": [["Content-Type", "application/json"], ["Date", "Mon, 01 Jan 2024 09:00:00 GMT"],
                            ["X-Request-Id", "a1"], ["Content-Length", "97"]], "body": {"json": \(Self.items)}}},
              {"recordedAt": "2024-01-01T09:00:01.000Z", "request": {"method": "POST", "url": "https://shop.example.com/orders",
               "headers": [["Content-Type", "application/json"]], "body": {"json": {"item": 3, "quantity": 1}}},
               "response": {"status": 201, "headers": [["Location", "/orders/9"], ["Date", "Mon, 01 Jan 2024 09:00:01 GMT"]]}}
            ]}
            """)
        try folder.write("new.json", """
            {"tracks": [
              {"response": {"status": 201, "headers": [["date", "Tue, 02 Jan 2024 10:00:01 GMT"], ["Location", "/orders/9"]]},
               "request": {"url": "https://shop.example.com/orders", "method": "POST",
               "headers": [["Content-Type", "application/json"]], "body": {"json": {"quantity": 1, "item": 3}}},
               "recordedAt": "2024-01-02T10:00:01.000Z"},
              {"recordedAt": "2024-01-02T10:00:00.000Z", "request": {"method": "GET", "url": "https://shop.example.com/items?size=4&page=1"},
               "response": {"status": 200, "headers": [["x-request-id", "b2"], ["Content-Type", "application/json"],
                            ["Date", "Tue, 02 Jan 2024 10:00:00 GMT"]], "body": {"text": "{ \\"total\\": 4.0, \\"items\\": [{\\"price\\": 10, \\"id\\": 1}, {\\"id\\": 2, \\"price\\": 11}, {\\"id\\": 3, \\"price\\": 12}, {\\"id\\": 4, \\"price\\": 12.50}] }"}}}
            ], "formatVersion": 1}
            """)
        let diff = CassetteDiff(old: try CassetteFile.load(folder.file("old.json")), new: try CassetteFile.load(folder.file("new.json")))
        #expect(diff.isEmpty, "\(diff.textReport(old: "old", new: "new"))")
        #expect(diff.unchangedCount == 2)
    }

    @Test("A changed price is exactly one difference, at its JSON pointer")
    func changedPrice() throws {
        let old = [Self.get("/items", Self.json(Self.items))]
        let new = [Self.get("/items", Self.json(Self.items.replacingOccurrences(of: "12.5", with: "13")))]
        let diff = Self.diff(old, new)
        #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.unchangedCount == 0)
        let change = try #require(diff.changed.first)
        #expect(diff.changed.count == 1)
        #expect(change.body?.reading == .json)
        #expect(change.body?.jsonDifferences == [JSONDifference(pointer: "/items/3/price", kind: .changed(from: .number("12.5"), to: .number("13")))])
        #expect(change.status == nil && change.headers == [])
        #expect(diff.textReport(old: "old", new: "new").contains("    body /items/3/price: 12.5 → 13\n"))
    }

    @Test("Tracks only one side has are added or removed; a key recorded once more pairs the i-th with the i-th")
    func addedAndRemoved() {
        let old = [Self.get("/a", Self.json("1")), Self.get("/b", Self.json("2")), Self.get("/b", Self.json("3"))]
        let new = [Self.get("/c", Self.json("4")), Self.get("/b", Self.json("2")), Self.get("/b", Self.json("3")), Self.get("/b", Self.json("5"))]
        let diff = Self.diff(old, new)
        #expect(diff.removed.map(\.subject.target) == ["https://shop.example.com/a"])
        #expect(diff.added.map { "\($0.subject)" } == ["GET https://shop.example.com/b #3", "GET https://shop.example.com/c"])
        #expect(diff.added.map(\.position) == [3, 0])
        #expect(diff.changed.isEmpty && diff.unchangedCount == 2)
        #expect(diff.hasDifferences && !diff.isEmpty)
    }

    @Test("Status, headers (any case, repeated, added, removed), transport errors and delays are compared")
    func responseParts() throws {
        let old = [
            Self.get("/s", Response(status: 200, headers: [HeaderField("Set-Cookie", "a=1"), HeaderField("Set-Cookie", "b=2"), HeaderField("X-Old", "1"), HeaderField("Cache-Control", "max-age=60")])),
            Track(request: Request(url: "https://shop.example.com/t"), outcome: .transportError(.timedOut)),
            Track(request: Request(url: "https://shop.example.com/d"), response: Response(), delay: .milliseconds(100)),
        ]
        let new = [
            Self.get("/s", Response(status: 404, headers: [HeaderField("set-cookie", "a=1"), HeaderField("SET-COOKIE", "b=3"), HeaderField("cache-control", "max-age=60"), HeaderField("X-New", "2")])),
            Track(request: Request(url: "https://shop.example.com/t"), response: Response(status: 200)),
            Track(request: Request(url: "https://shop.example.com/d"), response: Response(), delay: .milliseconds(250)),
        ]
        let diff = Self.diff(old, new)
        let byPath = Dictionary(uniqueKeysWithValues: diff.changed.map { ($0.subject.target, $0) })
        let headers = try #require(byPath["https://shop.example.com/s"])
        #expect(headers.status == ValueChange(old: 200, new: 404))
        #expect(headers.headers == [
            HeaderChange(name: "set-cookie", old: ["a=1", "b=2"], new: ["a=1", "b=3"]),
            HeaderChange(name: "x-new", old: [], new: ["2"]),
            HeaderChange(name: "x-old", old: ["1"], new: []),
        ])
        #expect(byPath["https://shop.example.com/t"]?.transportError == ValueChange(old: .timedOut, new: nil))
        #expect(byPath["https://shop.example.com/d"]?.delay == ValueChange(old: .milliseconds(100), new: .milliseconds(250)))
        let text = diff.textReport(old: "old", new: "new")
        for line in [
            #"header set-cookie: "a=1", "b=2" → "a=1", "b=3""#, #"header x-new: added "2""#, #"header x-old: removed "1""#,
            "status: 200 → 404", "outcome: transport error: timedOut → response", "delay: 100 ms → 250 ms",
        ] {
            #expect(text.contains(line), "\(line) in\n\(text)")
        }
    }

    @Test("Text bodies give the first differing line; binary bodies their sizes and hashes")
    func textAndBinaryBodies() throws {
        let text = Response(headers: [HeaderField("Content-Type", "text/plain")], body: "one\ntwo\nthree\n")
        var changedText = text
        changedText.body = Array("one\n2\nthree\nfour\n".utf8)
        let binary = Response(headers: [HeaderField("Content-Type", "image/png")], body: [0x89, 0x50, 0x00, 0xFF])
        var changedBinary = binary
        changedBinary.body = [0x89, 0x50, 0x00, 0xFE, 0x01]
        let diff = Self.diff([Self.get("/t", text), Self.get("/b", binary)], [Self.get("/t", changedText), Self.get("/b", changedBinary)])
        let byPath = Dictionary(uniqueKeysWithValues: diff.changed.map { ($0.subject.target, $0) })
        let textChange = try #require(byPath["https://shop.example.com/t"]?.body)
        #expect(textChange.reading == .text)
        #expect(textChange.firstDifferingLine == TextLineChange(line: 2, old: "two", new: "2", oldLineCount: 4, newLineCount: 5))
        let binaryChange = try #require(byPath["https://shop.example.com/b"]?.body)
        #expect(binaryChange.reading == .binary)
        #expect(binaryChange.old.byteCount == 4 && binaryChange.new.byteCount == 5 && binaryChange.old.hash != binaryChange.new.hash)
        let report = diff.textReport(old: "old", new: "new")
        #expect(report.contains(#"body line 2: "two" → "2" (4 → 5 lines)"#), "\(report)")
        #expect(report.contains("body: 4 bytes, xxh3 \(binaryChange.old.hashHex) → 5 bytes, xxh3 \(binaryChange.new.hashHex)"), "\(report)")
    }

    @Test("JSON fields the configuration or the options ignore, and ignored headers, are left out of keys and responses")
    func ignoredParts() throws {
        let configuration = MatchingConfiguration(
            attributes: [.method, .url, .query, .body, .header("X-Session")], ignoredJSONFields: [try JSONPointer("/meta/requestId")])
        func track(session: String, requestId: String, nonce: Int, etag: String) -> Track {
            Track(
                request: Request(
                    method: "POST", url: "https://shop.example.com/pay",
                    headers: [HeaderField("Content-Type", "application/json"), HeaderField("X-Session", session)],
                    body: #"{"amount":5,"meta":{"requestId":"\#(requestId)"}}"#),
                response: Self.json(#"{"ok":true,"meta":{"requestId":"\#(requestId)"},"nonce":\#(nonce)}"#, headers: [HeaderField("ETag", etag)]))
        }
        let old = Self.imported([track(session: "s1", requestId: "r1", nonce: 1, etag: "e1")], configuration: configuration)
        let new = Self.imported([track(session: "s2", requestId: "r2", nonce: 2, etag: "e2")], configuration: configuration)
        let strict = CassetteDiff(old: old, new: new)
        #expect(strict.added.count == 1 && strict.removed.count == 1, "the session header is in the key")
        let options = CassetteDiffOptions(
            ignoredHeaders: CassetteDiffOptions.defaultIgnoredHeaders.union(["X-Session", "ETAG"]), ignoredJSONFields: [try JSONPointer("/nonce")])
        let lenient = CassetteDiff(old: old, new: new, options: options)
        #expect(lenient.isEmpty, "\(lenient.textReport(old: "old", new: "new"))")
        #expect(lenient.configuration.attributes == [.method, .url, .query, .body])
        #expect(lenient.configuration.ignoredJSONFields.map(\.description) == ["/meta/requestId", "/nonce"])
    }

    @Test("Keys are made under the new cassette's configuration, the old one's when the new one's is the default, or the options'")
    func configurationChoice() {
        let pathOnly = MatchingConfiguration(attributes: [.method, .path])
        let old = Self.imported([Track(request: Request(url: "http://localhost:8080/items"), response: Response())], configuration: pathOnly)
        let new = Self.imported([Track(request: Request(url: "http://localhost:9090/items"), response: Response())])
        #expect(CassetteDiff(old: old, new: new).isEmpty, "the old cassette's path matching pairs them")
        #expect(CassetteDiff(old: new, new: old).isEmpty, "the new cassette's path matching pairs them")
        let byURL = CassetteDiff(old: old, new: new, options: CassetteDiffOptions(configuration: .default))
        #expect(byURL.added.count == 1 && byURL.removed.count == 1)
    }

    @Test("A key recorded twice where the old cassette had it once is flagged: a retried request recorded as a failure")
    func retriedRequestFlag() throws {
        let payment = Request(method: "POST", url: "https://shop.example.com/pay", body: "amount=5")
        let old = Self.imported([Track(request: payment, response: Response(status: 200))], strategy: .fifo)
        let new = Self.imported([Track(request: payment, response: Response(status: 503)), Track(request: payment, response: Response(status: 200))], strategy: .fifo)
        let diff = CassetteDiff(old: old, new: new)
        let flag = try #require(diff.flags.first)
        #expect(diff.flags.count == 1)
        #expect(flag.kind == .repeatedKey && flag.isNew)
        #expect(flag.message.contains("recorded 2 times (answers 503, then 200) where the old cassette has it once"), "\(flag.message)")
        #expect(diff.changed.first?.status == ValueChange(old: 200, new: 503), "the first occurrences pair")
        #expect(diff.added.count == 1)
    }

    @Test("Duplicate keys under the repeat strategy are flagged, as new only when the old cassette had fewer")
    func repeatStrategyDuplicates() {
        let tracks = [Self.get("/a", Self.json("1")), Self.get("/a", Self.json("2"))]
        let same = CassetteDiff(old: Self.imported(tracks), new: Self.imported(tracks))
        #expect(same.flags.map(\.kind) == [.repeatedKey])
        #expect(same.flags.first?.isNew == false)
        #expect(same.isEmpty, "a problem the old cassette had already is listed, not counted")
        let fifo = CassetteDiff(old: Self.imported(tracks, strategy: .fifo), new: Self.imported(tracks, strategy: .fifo))
        #expect(fifo.flags.isEmpty, "a FIFO sequence recorded as often as before is what FIFO is for")
        let sequenced = CassetteDiff(
            old: Self.imported(tracks), new: Self.imported(tracks),
            options: CassetteDiffOptions(strategy: .uniquePlay))
        #expect(sequenced.flags.isEmpty)
    }

    @Test("Secrets the redaction names are flagged in the new cassette, as new unless its old track had them")
    func secretFlags() throws {
        let secret = Request(url: "https://shop.example.com/me?api_key=live-123", headers: [HeaderField("Authorization", "Bearer live-token")])
        let redacted = Request(url: "https://shop.example.com/me?api_key=%3Credacted%3E", headers: [HeaderField("Authorization", "<redacted>")])
        let diff = CassetteDiff(
            old: Self.imported([Track(request: redacted, response: Response())]),
            new: Self.imported([Track(request: secret, response: Response())]),
            options: CassetteDiffOptions(configuration: MatchingConfiguration(attributes: [.method, .url])))
        #expect(diff.flags.map(\.message) == ["query parameter api_key is not redacted", "request header Authorization is not redacted"])
        #expect(diff.flags.allSatisfy { $0.kind == .unredactedSecret && $0.isNew })
        #expect(!diff.isEmpty && !diff.hasDifferences, "a new secret is worth a look though nothing replayed differs")
        let again = CassetteDiff(old: Self.imported([Track(request: secret, response: Response())]), new: Self.imported([Track(request: secret, response: Response())]))
        #expect(again.flags.count == 2 && again.flags.allSatisfy { !$0.isNew } && again.isEmpty)
    }

    @Test("Rules are paired by their conditions and compared by what they answer")
    func rules() throws {
        let folder = try TemporaryFolder()
        try folder.write("old.yaml", "rules:\n  - {name: pets, method: GET, path: '^/pets', status: 200, body: '[1]'}\n  - {name: gone, path: '^/old', status: 410}\n")
        try folder.write("new.yaml", "rules:\n  - {name: pets renamed, method: GET, path: '^/pets', status: 200, body: '[1,2]', priority: 1}\n")
        let diff = CassetteDiff(old: try CassetteFile.load(folder.file("old.yaml")), new: try CassetteFile.load(folder.file("new.yaml")))
        let change = try #require(diff.changed.first)
        #expect(change.subject.kind == .rule && change.subject.name == "pets renamed")
        #expect(change.body?.jsonDifferences == [JSONDifference(pointer: "/1", kind: .added(.number("2")))])
        #expect(change.priority == ValueChange(old: nil, new: 1))
        #expect(diff.removed.map(\.subject.description) == [#"rule "gone": any method ^/old"#])
    }

    @Test("Every readable format: a re-recording with a changed price shows that one pointer and nothing else", arguments: DiffFormatFixture.all)
    func everyFormat(_ fixture: DiffFormatFixture) throws {
        let folder = try TemporaryFolder()
        for name in ["old", "new", "again"] {
            try FileManager.default.createDirectory(at: folder.file(name), withIntermediateDirectories: true)
        }
        let old = try CassetteFile.load(try fixture.write(folder.file("old"), "12.5", false))
        let sameAgain = try CassetteFile.load(try fixture.write(folder.file("again"), "12.5", true))
        let new = try CassetteFile.load(try fixture.write(folder.file("new"), "13", true))
        #expect(old.cassette.entries.count + old.rules.count == 1, "the fixture loads as one track or rule")
        let unchanged = CassetteDiff(old: old, new: sameAgain)
        #expect(unchanged.isEmpty, "\(unchanged.textReport(old: "old", new: "again"))")
        let diff = CassetteDiff(old: old, new: new)
        #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.flags.isEmpty)
        let change = try #require(diff.changed.first, "\(diff.textReport(old: "old", new: "new"))")
        #expect(diff.changed.count == 1)
        #expect(change.status == nil && change.headers.isEmpty && change.delay == nil && change.transportError == nil, "\(change)")
        #expect(change.body?.jsonDifferences == [JSONDifference(pointer: "/price", kind: .changed(from: .number("12.5"), to: .number("13")))])
    }

    @Test("Every file of the conformance corpus diffed against itself has no differences", .enabled(if: Conformance.isAvailable, Conformance.skipMessage))
    func conformanceCorpus() throws {
        let files = ["har", "vcr", "dvr", "vinyl"].flatMap { Conformance.files(in: $0, withExtensions: ["har", "yml", "yaml", "json"]) }
        #expect(files.count >= 10)
        for path in files {
            let imported = try CassetteFile.load(Conformance.url(path))
            let diff = CassetteDiff(old: imported, new: imported)
            #expect(!diff.hasDifferences, "\(path): \(diff.textReport(old: path, new: path))")
            #expect(diff.unchangedCount == imported.cassette.entries.count + imported.rules.count, "\(path)")
        }
    }

    @Test("The textconv listing is the same whatever the track order, member order, dates and ids; a changed price changes one line")
    func listing() throws {
        let old = Self.imported([
            Self.get("/b", Self.json(#"{"price":12.5,"name":"lamp"}"#, headers: [HeaderField("Date", "Mon, 01 Jan 2024 09:00:00 GMT")])),
            Self.get("/a", Self.json("[]", headers: [HeaderField("X-Request-Id", "1")])),
        ])
        let reordered = Self.imported([
            Self.get("/a", Self.json("[ ]", headers: [HeaderField("X-Request-Id", "2")])),
            Self.get("/b", Self.json(#"{"name":"lamp","price":12.50}"#, headers: [HeaderField("Date", "Tue, 02 Jan 2024 10:00:00 GMT")])),
        ])
        let listing = CassetteListing.text(of: old)
        #expect(listing == CassetteListing.text(of: reordered))
        #expect(!listing.contains("date") && !listing.contains("x-request-id"))
        let changed = Self.imported([
            Self.get("/a", Self.json("[]")), Self.get("/b", Self.json(#"{"name":"lamp","price":13}"#)),
        ])
        let before = listing.split(separator: "\n"), after = CassetteListing.text(of: changed).split(separator: "\n")
        #expect(before.count == after.count)
        #expect(zip(before, after).filter { $0 != $1 }.map { "\($0.0) | \($0.1)" } == [#"  body /price: 12.5 |   body /price: 13"#])
        #expect(listing.hasPrefix("track GET https://shop.example.com/a\n"), "tracks in key order: \(listing)")
    }

    @Test("Markdown renders recorded content as text: backticks, <script>, emphasis and line breaks cannot escape their code spans and blocks")
    func markdownEscaping() throws {
        let hostile = "https://shop.example.com/x?q=``<script>alert(1)</script>**bold**"
        let old = [Track(request: Request(url: hostile), response: Response(headers: [HeaderField("X-Note", "a")], body: "plain"))]
        let new = [Track(request: Request(url: hostile), response: Response(headers: [HeaderField("X-Note", "```\n# heading <img src=x>")], body: "````\nplain"))]
        let added = Track(request: Request(url: "https://shop.example.com/`"), response: Response())
        let markdown = Self.diff(old, new + [added]).markdownReport(old: "old `file`.json", new: "<b>new</b>.json")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("### Cassette diff: `` old `file`.json `` → ` <b>new</b>.json `"), "\(markdown)")
        #expect(lines.contains("##### ``` GET \(hostile) ```"), "a span fenced by one backtick more than the longest run inside: \(markdown)")
        #expect(lines.contains("- `` GET https://shop.example.com/` ``: status 200, 0 bytes"), "\(markdown)")
        // The change's lines sit in a block whose fence is longer than the four backticks of the body.
        let open = try #require(lines.firstIndex(of: "`````text"), "\(markdown)")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "`````"))
        #expect(lines[(open + 1)..<close].contains(#"header x-note: "a" → "```\n# heading <img src=x>""#), "\(markdown)")
        #expect(!lines.contains { $0.hasPrefix("# heading") }, "a recorded line break never starts a Markdown line")
        #expect(MarkdownText.escaped("<script>*a* [l](u) @team #1 :smile: x: y") == ##"\<script\>\*a\* \[l\](u) \@team \#1 \:smile: x: y"##)
    }

    @Test("The JSON report has stable members and lists each difference by pointer")
    func jsonReport() throws {
        let old = [Self.get("/items", Self.json(Self.items))]
        let new = [Self.get("/items", Self.json(Self.items.replacingOccurrences(of: "12.5", with: "13"))), Self.get("/new", Response(status: 201))]
        let report = Self.diff(old, new).jsonReport(old: "old.json", new: "new.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report)) as? [String: Any])
        #expect(object["diffFormatVersion"] as? Int == 1 && object["isEmpty"] as? Bool == false)
        #expect(object["summary"] as? [String: Int] == ["changed": 1, "added": 1, "removed": 0, "unchanged": 0, "flags": 0, "newFlags": 0])
        let changed = try #require((object["changed"] as? [[String: Any]])?.first)
        let differences = try #require((changed["body"] as? [String: Any])?["differences"] as? [[String: Any]])
        #expect(differences.count == 1)
        #expect(differences.first?["pointer"] as? String == "/items/3/price")
        #expect(differences.first?["change"] as? String == "changed")
        #expect((differences.first?["old"] as? NSNumber)?.doubleValue == 12.5 && (differences.first?["new"] as? NSNumber)?.intValue == 13)
        let added = try #require((object["added"] as? [[String: Any]])?.first)
        #expect(added["status"] as? Int == 201 && (added["subject"] as? [String: Any])?["target"] as? String == "https://shop.example.com/new")
        let text = String(decoding: report, as: UTF8.self)
        let order = ["\"diffFormatVersion\"", "\"old\"", "\"new\"", "\"isEmpty\"", "\"summary\"", "\"changed\"", "\"added\"", "\"removed\"", "\"flags\""]
        let positions = order.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted(), "members in documented order")
    }
}

/// diff(X, X) and diff(X, shuffled X) are empty for cassettes replayed under repeat.
@Suite("Cassette diff properties")
struct CassetteDiffPropertyTests {
    /// Up to 40 generated tracks with distinct keys (under repeat only a key's first track answers, so
    /// a shuffle of duplicates would change what replays: that is a difference).
    static func tracks(seed: UInt64, count: Int) -> [Track] {
        var seen = Set<RequestKey>()
        let canonicalizer = RequestCanonicalizer()
        let workload = Workload(trackCount: count, seed: seed)
        return workload.tracks.filter { seen.insert(canonicalizer.key(for: $0.request)).inserted }
    }

    static func imported(_ tracks: [Track]) -> CassetteImport {
        CassetteImport(cassette: Cassette(strategy: .repeat, entries: tracks.map { CassetteEntry($0) }))
    }

    @Test("diff(X, X) is empty")
    func selfDiff() async {
        await propertyCheck(input: Gen.int(in: 0...10_000), Gen.int(in: 0...40)) { seed, count in
            let imported = Self.imported(Self.tracks(seed: UInt64(seed), count: count))
            let diff = CassetteDiff(old: imported, new: imported)
            #expect(diff.isEmpty && diff.flags.isEmpty)
            #expect(diff.unchangedCount == imported.cassette.entries.count)
        }
    }

    @Test("diff(X, shuffled X) is empty for repeat-strategy cassettes, and their listings are equal")
    func shuffledDiff() async {
        await propertyCheck(input: Gen.int(in: 0...10_000), Gen.int(in: 0...40)) { seed, count in
            let tracks = Self.tracks(seed: UInt64(seed), count: count)
            var random = SeededRandom(seed: UInt64(seed) &+ 1)
            let old = Self.imported(tracks)
            let new = Self.imported(tracks.shuffled(using: &random))
            #expect(CassetteDiff(old: old, new: new).isEmpty)
            #expect(CassetteListing.text(of: old) == CassetteListing.text(of: new))
        }
    }
}
