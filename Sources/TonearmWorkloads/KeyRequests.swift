import Tonearm

/// The fixed requests the key-computation benchmarks hash: the shapes issue 3 names, built the same way
/// every time so a number measured today compares with one measured next month.
///
/// ```swift
/// let canonicalizer = RequestCanonicalizer()
/// let key = canonicalizer.key(for: KeyRequests.get())
/// ```
public enum KeyRequests {
    /// The length of ``get()``'s URL.
    public static let getURLLength = 120

    /// A GET whose URL is exactly 120 characters with 6 query parameters in unsorted order, one of them
    /// percent-encoded, as a typical list endpoint with paging, sorting and filters.
    public static func get() -> Request {
        let base = "https://api7.example.com/v1/users/10042/orders?sort=created_at&page=3&per_page=50"
            + "&lang=en&filter=status%3Aopen&cursor="
        // The cursor absorbs whatever is left, so the URL has exactly `getURLLength` characters.
        let padding = String("c0ffee42deadbeef7a3b9e1d0f5c8a62".prefix(max(getURLLength - base.utf8.count, 0)))
        return Request(
            method: "GET", url: base + padding,
            headers: [HeaderField("Accept", "application/json"), HeaderField("User-Agent", "tonearm-bench/1")])
    }

    /// A POST with a JSON body of at least `bodyBytes` bytes (objects nested up to four levels, arrays,
    /// strings with non-ASCII letters, integers and decimals), members in generation order, not sorted.
    public static func jsonPost(bodyBytes: Int, seed: UInt64 = 7) -> Request {
        Request(
            method: "POST", url: "https://api3.example.com/v1/events?source=bench",
            headers: [HeaderField("Content-Type", "application/json"), HeaderField("Accept", "application/json")],
            body: jsonDocument(bodyBytes: bodyBytes, seed: seed))
    }

    /// A JSON document of at least `bodyBytes` bytes, the body of ``jsonPost(bodyBytes:seed:)``.
    public static func jsonDocument(bodyBytes: Int, seed: UInt64 = 7) -> [UInt8] {
        let vocabulary = Vocabulary(shape: WorkloadShape())
        // The generator estimates sizes; grow the target until the text really reaches `bodyBytes`.
        var target = bodyBytes
        while true {
            var random = SeededRandom(seed: seed)
            let text = vocabulary.document(number: 4_242, targetSize: target, random: &random).text()
            if text.utf8.count >= bodyBytes { return Array(text.utf8) }
            target += max(bodyBytes - text.utf8.count, 16)
        }
    }

    /// A JSON array of small records (8–9 members each, one nested object and one array) of at least
    /// `bodyBytes` bytes: the shape of a batch upload, where ``jsonDocument(bodyBytes:seed:)`` is one
    /// wide object. Canonicalisation cost depends on the shape, since every object's members are sorted.
    public static func jsonRecords(bodyBytes: Int, seed: UInt64 = 9) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        let vocabulary = Vocabulary(shape: WorkloadShape())
        var records: [GeneratedJSON] = []
        var size = 2
        while size < bodyBytes {
            let number = records.count
            let record = GeneratedJSON.object([
                ("status", .string(["active", "pending", "closed"][Int.random(in: 0..<3, using: &random)])),
                ("id", .number("\(100_000 + number)")),
                ("name", .string(vocabulary.word(&random) + " " + vocabulary.word(&random))),
                ("email", .string(vocabulary.word(&random) + "@example.com")),
                ("score", .number("\(Double(Int.random(in: 0...99_999, using: &random)) / 100)")),
                ("tags", .array((0..<Int.random(in: 0...3, using: &random)).map { _ in .string(vocabulary.word(&random)) })),
                ("address", .object([("zip", .string("\(Int.random(in: 10_000...99_999, using: &random))")),
                                     ("city", .string(vocabulary.word(&random)))])),
                ("enabled", .bool(Bool.random(using: &random))),
                ("createdAt", .string("2026-11-\(10 + number % 18)T08:\(10 + number % 50):00Z")),
            ])
            size += record.text().utf8.count + 1
            records.append(record)
        }
        return Array(GeneratedJSON.array(records).text().utf8)
    }

    /// A POST with an `application/x-www-form-urlencoded` body of 8 fields, percent-encoded values and
    /// `+` for spaces, as an HTML form or an OAuth token request sends.
    public static func formPost() -> Request {
        let body = "grant_type=client_credentials&client_id=tonearm-bench&scope=read+write+admin"
            + "&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&state=af0ifjsldkj&nonce=n-0S6_WzA2Mj"
            + "&lang=en&note=caf%C3%A9+au+lait"
        return Request(
            method: "POST", url: "https://auth.example.com/oauth/token",
            headers: [HeaderField("Content-Type", "application/x-www-form-urlencoded")], body: body)
    }
}
