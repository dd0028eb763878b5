import Foundation
import Tonearm

/// go-vcr (dnaeon/go-vcr) YAML cassettes, format versions 1 and 2:
/// `{version, interactions: [{request: {method, url, headers, body, form}, response: {code, status, headers, body}}]}`.
///
/// The shape is VCR's with Go's field names (`url`, not `uri`; the status as `code` beside the text
/// `status: 200 OK`), so headers and bodies are read by ``VCRFormat``'s readers: header values as lists,
/// bodies as strings, or `!!binary` where Go's YAML encoder met bytes that are not UTF-8.
/// Version 2's connection facts (`proto`, `host`, `remote_addr`, `content_length`, `uncompressed`,
/// `duration`, `id`) are known and left out; `form` restates the URL's query and a form body, both
/// read from where they are sent. Any other member carrying data is a warning, as in VCR.
public enum GoVCRFormat {
    /// The cassette versions go-vcr writes.
    static let versions = 1...2

    private static let cassetteMembers = ["version", "interactions"]
    private static let interactionMembers = ["id", "request", "response", "discard"]
    private static let requestMembers = [
        "method", "url", "headers", "body", "form", "proto", "proto_major", "proto_minor", "content_length",
        "transfer_encoding", "trailer", "host", "remote_addr", "request_uri",
    ]
    private static let responseMembers = [
        "code", "status", "headers", "body", "proto", "proto_major", "proto_minor", "content_length",
        "transfer_encoding", "trailer", "uncompressed", "duration",
    ]

    /// Reads a go-vcr cassette; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        guard let document = try YAMLDocumentReader.readIfPresent(source) else { return CassetteImport(cassette: Cassette()) }
        let root = DocumentCursor(root: document, source: source)
        if let version = try root.member("version") {
            let number = try version.int()
            guard versions.contains(number) else {
                throw version.error(expected: "go-vcr cassette version 1 or 2", found: "\(number)")
            }
        }
        var warnings = try VCRFormat.unreadData(in: root, known: cassetteMembers, file: file)
        var entries: [CassetteEntry] = []
        for interaction in try root.required("interactions", expected: "a list of interactions").elements() {
            let request = try interaction.required("request", expected: "a request mapping")
            let response = try interaction.required("response", expected: "a response mapping")
            warnings += try VCRFormat.unreadData(in: interaction, known: interactionMembers, file: file)
            warnings += try VCRFormat.unreadData(in: request, known: requestMembers, file: file)
            warnings += try VCRFormat.unreadData(in: response, known: responseMembers, file: file)
            entries.append(CassetteEntry(Track(request: try readRequest(request), response: try readResponse(response))))
        }
        return CassetteImport(cassette: Cassette(entries: entries), warnings: warnings)
    }

    private static func readRequest(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        Request(
            method: try cursor.required("method", expected: "a method").scalarText().uppercased(),
            url: try cursor.required("url", expected: "a request URL").string(),
            headers: try VCRFormat.readHeaders(cursor.member("headers")),
            body: try VCRFormat.readBody(cursor.member("body")))
    }

    /// The status is `code`; cassettes without one (or with `code: 0`) give it only in the
    /// status line's text, `200 OK`, whose leading number is read.
    private static func readResponse(_ cursor: DocumentCursor) throws(CassetteError) -> Response {
        let status: Int
        if let code = try cursor.member("code"), try code.int() != 0 {
            status = try code.statusCode()
        } else {
            let line = try cursor.required("status", expected: "a status code (or a status line such as \"200 OK\")")
            let text = try line.scalarText()
            guard let code = Int(text.prefix { $0.isASCII && $0.isNumber }), RecordedLimits.statuses.contains(code) else {
                throw line.error(expected: "a status line starting with \(RecordedLimits.statusDescription)", found: text.debugDescription)
            }
            status = code
        }
        return Response(
            status: status, headers: try VCRFormat.readHeaders(cursor.member("headers")),
            body: try VCRFormat.readBody(cursor.member("body")))
    }
}
