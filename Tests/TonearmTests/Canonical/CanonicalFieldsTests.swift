import Testing
@testable import Tonearm

@Suite("Canonical form fields")
struct CanonicalFieldsTests {
    @Test("fields read back every line, even a raw body holding spaces, line feeds and digits")
    func fieldsReadBackEveryLine() {
        let request = Request(
            method: "post", url: "https://h.example/a?b=1",
            headers: [HeaderField("Content-Type", "text/plain"), HeaderField("X-Id", "7")],
            body: "12 x\nquery 3 zzz\n")
        let configuration = MatchingConfiguration(attributes: [.method, .url, .query, .body, .header("x-id")])
        let canonical = RequestCanonicalizer(configuration).canonicalize(request)
        let fields = canonical.fields.map { ($0.label, String(decoding: $0.value, as: UTF8.self)) }
        let labels = [CanonicalLabel.method, .url, .query].map(\.description) + [CanonicalLabel.header("x-id"), CanonicalLabel.rawBody.description]
        #expect(fields.map(\.0) == labels)
        #expect(fields.map(\.1) == ["POST", "https://h.example/a", "b=1", "7", "12 x\nquery 3 zzz\n"])
        #expect(canonical.field(CanonicalLabel.query.description) == Array("b=1".utf8))
        #expect(canonical.field(CanonicalLabel.path.description) == nil)
    }
}
