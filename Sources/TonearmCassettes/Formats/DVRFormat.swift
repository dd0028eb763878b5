import Foundation
import Tonearm

/// venmo/DVR cassettes: `{"name", "interactions": [{request, response, recorded_at}]}`.
///
/// A body is a JSON value when the content is JSON, text when the `Content-Type` is textual, and
/// base64 otherwise — DVR's own rules, applied with the message's `Content-Type`.
public enum DVRFormat {
    /// Reads a DVR cassette; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        return try decode(DocumentCursor(root: try JSONDocumentParser.parse(source), source: source))
    }

    static func decode(_ root: DocumentCursor) throws(CassetteError) -> CassetteImport {
        var entries: [CassetteEntry] = []
        var warnings: [ImportWarning] = []
        for interaction in try root.required("interactions", expected: "an array of interactions").elements() {
            let request = try RecordedMessage.request(try interaction.required("request", expected: "a request object"))
            let response = try RecordedMessage.response(try interaction.required("response", expected: "a response object"))
            let recordedAt = try interaction.member("recorded_at")?.recordingTime(file: root.source.file, warnings: &warnings) {
                (value) throws(CassetteError) in Timestamp.date(secondsSince1970: try value.double())
            }
            entries.append(CassetteEntry(Track(request: request, response: response), recordedAt: recordedAt))
        }
        return CassetteImport(cassette: Cassette(name: try root.optionalString("name"), entries: entries), warnings: warnings)
    }
}

/// The request and response shapes DVR and Vinyl share: headers as an object, body by content type.
enum RecordedMessage {
    static func request(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        let method = try cursor.optionalString("method") ?? "GET"
        let url = try cursor.required("url", expected: "a URL string").string()
        let headers = try headers(cursor.member("headers"))
        return Request(method: method, url: url, headers: headers, body: try body(cursor.member("body"), headers: headers))
    }

    static func response(_ cursor: DocumentCursor) throws(CassetteError) -> Response {
        let status = try cursor.required("status", expected: "a status code").statusCode()
        let headers = try headers(cursor.member("headers"))
        return Response(status: status, headers: headers, body: try body(cursor.member("body"), headers: headers))
    }

    static func headers(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        guard let cursor else { return [] }
        var fields: [HeaderField] = []
        for (name, value) in try cursor.members() { fields.append(HeaderField(name, try value.scalarText())) }
        return fields
    }

    /// A JSON value is the body's JSON; a string is text for textual content types (or when it is not
    /// base64), and base64 otherwise.
    static func body(_ cursor: DocumentCursor?, headers: [HeaderField]) throws(CassetteError) -> [UInt8] {
        guard let cursor else { return [] }
        guard case .string(let text) = cursor.node.value else { return JSONOutput(cursor.node).compact() }
        let contentType = headers.first(named: "Content-Type")
        if MediaType.isText(contentType) && !MediaType.isJSON(contentType) { return Array(text.utf8) }
        if let bytes = Base64.decode(text), !text.isEmpty { return bytes }
        return Array(text.utf8)
    }
}
