import Tonearm

extension StubSchema {
    /// Every member a request document may have.
    static let requestKeys = ["method", "url", "headers", "body"]

    /// Reads one request written in the schema's request terms (`tonearm key` and `tonearm explain`
    /// read these): `url`, optional `method` (GET), `headers` (an object or `[name, value]` pairs) and
    /// `body` (a text, or any JSON value, taken as written so big integers and member order survive).
    package static func decodeRequest(_ bytes: [UInt8], file: String?) throws(CassetteError) -> Request {
        let source = DocumentSource(file: file, bytes: bytes)
        // The body is kept as text, not built: it is taken as written, and may be large.
        let cursor = DocumentCursor(root: try JSONDocumentParser.parse(source, options: .init(streamedPath: ["body"])), source: source)
        try cursor.refuseUnknownMembers(known: requestKeys, owner: "the request document")
        let url = try cursor.required("url", expected: "the request's URL").string()
        let method = try cursor.optionalString("method") ?? "GET"
        let headers = try StubHeaderReader.read(cursor.member("headers"))
        var body: [UInt8] = []
        if let given = try cursor.member("body") {
            if given.isString {
                body = Array(try given.string().utf8)
            } else {
                body = StubDocumentSyntax.jsonBody(given)
            }
        }
        return Request(method: method, url: url, headers: headers, body: body)
    }
}
