import Testing
@testable import Tonearm

/// Form uploads and `multipart/mixed` batches are matched part by part: by a part's headers and body.
@Suite("Multipart conditions")
struct MultipartConditionTests {
    static func upload(_ parts: [(name: String, type: String?, content: String)], boundary: String = "b0undary") -> Request {
        var body = ""
        for part in parts {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n"
            if let type = part.type { body += "Content-Type: \(type)\r\n" }
            body += "\r\n\(part.content)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return Request(
            method: "POST", url: "https://api.example.com/upload",
            headers: [HeaderField("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: Array(body.utf8))
    }

    static func engine(_ condition: MultipartCondition) throws -> ReplayEngine {
        var rule = Rule(name: "upload", method: "POST", pattern: "^https://api\\.example\\.com/upload$", response: Response(status: 201))
        rule.multipart = [condition]
        return ReplayEngine(tracks: [], strategy: .rules(try RuleSet([rule])))
    }

    @Test("ANY: one part with the named header and the JSON body answers; other parts do not matter")
    func anyPart() throws {
        let engine = try Self.engine(MultipartCondition(
            .any, headers: [HeaderCondition("content-disposition", .contains("name=\"meta\""))],
            body: [BodyCondition(.wholeBody, .equalsJSON(try JSONValue(parsing: Array(#"{"a": 1}"#.utf8))))]))
        #expect(Fixtures.status(engine.match(Self.upload([("file", "text/plain", "bytes"), ("meta", "application/json", #"{"a":1}"#)]))) == 201)
        #expect(engine.match(Self.upload([("meta", "application/json", #"{"a":2}"#)])).hit == nil)
        #expect(engine.match(Self.upload([("file", nil, #"{"a":1}"#)])).hit == nil)
    }

    @Test("ALL: every part must pass")
    func allParts() throws {
        let engine = try Self.engine(MultipartCondition(.all, body: [BodyCondition(.wholeBody, .contains("x"))]))
        #expect(engine.match(Self.upload([("p", nil, "x1"), ("q", nil, "yx")])).hit != nil)
        #expect(engine.match(Self.upload([("p", nil, "x1"), ("q", nil, "yy")])).hit == nil)
    }

    @Test("a body that is not multipart, or has no boundary, satisfies no multipart condition")
    func notMultipart() throws {
        let engine = try Self.engine(MultipartCondition())
        #expect(engine.match(Self.upload([("p", nil, "v")])).hit != nil)
        var form = Self.upload([("p", nil, "v")])
        form.headers = [HeaderField("Content-Type", "application/x-www-form-urlencoded")]
        #expect(engine.match(form).hit == nil)
        form.headers = [HeaderField("Content-Type", "multipart/form-data")]
        #expect(engine.match(form).hit == nil)
    }

    @Test("parts are split on the bytes: quoted boundaries, preamble, parts without headers, a missing close")
    func splitting() {
        let body = Array("preamble\r\n--a b\r\n\r\nno headers\r\n--a b\r\nX-One: 1\r\n\r\nline\r\nbreak\r\n--a b--\r\nepilogue".utf8)
        let parts = MultipartBody.parts(contentType: "multipart/mixed; boundary=\"a b\"", body: body)
        #expect(parts?.map { String(decoding: $0.body, as: UTF8.self) } == ["no headers", "line\r\nbreak"])
        #expect(parts?.last?.headers == [HeaderField("X-One", "1")])
        let unclosed = MultipartBody.parts(contentType: "multipart/mixed; boundary=z", body: Array("--z\r\nA: 1\r\n\r\nv".utf8))
        #expect(unclosed?.isEmpty == true)
        #expect(MultipartBody.parts(contentType: "text/plain; boundary=z", body: body) == nil)
        // RFC 2046's longest boundary is 70 characters: a longer one would make the search quadratic.
        #expect(MultipartBody.boundary(in: "multipart/mixed; boundary=" + String(repeating: "a", count: 70)) != nil)
        #expect(MultipartBody.boundary(in: "multipart/mixed; boundary=" + String(repeating: "a", count: 71)) == nil)
    }

    @Test("splitting never traps on arbitrary bytes", arguments: 0..<200)
    func arbitraryBytes(seed: Int) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("-\r\nz: a".utf8)
        let body = (0..<(seed % 60)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
        _ = MultipartBody.parts(contentType: "multipart/form-data; boundary=z", body: body)
    }
}
