import Foundation
import Tonearm

/// VCR-style YAML cassettes: Ruby VCR (`http_interactions`) and vcrpy (`interactions`).
///
/// Bodies may be plain strings, `{string: …}`, `{base64_string: …}`, YAML `!!binary` or Ruby's local
/// `!binary` tag. Bytes are kept exactly as recorded: a gzip body stays gzip, together with its
/// `Content-Encoding: gzip` header, so the cassette holds what the server sent; consumers that must
/// hand over decoded bodies (`TonearmURLSession`) decode them (docs/cassette-format.md, "gzip bodies").
public enum VCRFormat {
    /// Reads a VCR cassette; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try YAMLDocumentReader.read(source), source: source)
        var interactions = try root.member("http_interactions")
        if interactions == nil { interactions = try root.member("interactions") }
        guard let interactions else {
            throw root.missing("http_interactions", expected: "\"http_interactions\" (Ruby VCR) or \"interactions\" (vcrpy)")
        }
        var entries: [CassetteEntry] = []
        var warnings: [ImportWarning] = []
        for interaction in try interactions.elements() {
            entries.append(try readInteraction(interaction, file: file, warnings: &warnings))
        }
        return CassetteImport(cassette: Cassette(entries: entries), warnings: warnings)
    }

    private static func readInteraction(
        _ cursor: DocumentCursor, file: String?, warnings: inout [ImportWarning]
    ) throws(CassetteError) -> CassetteEntry {
        let request = try cursor.required("request", expected: "a request mapping")
        let response = try cursor.required("response", expected: "a response mapping")
        let track = Track(request: try readRequest(request), response: try readResponse(response))
        let recordedAt = try cursor.member("recorded_at")?.recordingTime(file: file, warnings: &warnings) { (value) throws(CassetteError) in
            Timestamp.parse(try value.scalarText())
        }
        return CassetteEntry(track, recordedAt: recordedAt)
    }

    private static func readRequest(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        let method = try cursor.required("method", expected: "a method").scalarText().uppercased()
        let url = try cursor.required("uri", expected: "a request URI").string()
        return Request(method: method, url: url, headers: try readHeaders(cursor.member("headers")), body: try readBody(cursor.member("body")))
    }

    private static func readResponse(_ cursor: DocumentCursor) throws(CassetteError) -> Response {
        let statusCursor = try cursor.required("status", expected: "a status")
        let status: Int
        if case .object = statusCursor.node.value {
            status = try statusCursor.required("code", expected: "a status code").statusCode()
        } else {
            status = try statusCursor.statusCode()
        }
        return Response(status: status, headers: try readHeaders(cursor.member("headers")), body: try readBody(cursor.member("body")))
    }

    /// `Name: [value, …]` (both dialects) or `Name: value`.
    private static func readHeaders(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        guard let cursor else { return [] }
        var fields: [HeaderField] = []
        for (name, value) in try cursor.members() {
            if case .array = value.node.value {
                for item in try value.elements() { fields.append(HeaderField(name, try item.scalarText())) }
            } else if !value.isNull {
                fields.append(HeaderField(name, try value.scalarText()))
            }
        }
        return fields
    }

    /// A body in any of the dialects' shapes.
    private static func readBody(_ cursor: DocumentCursor?) throws(CassetteError) -> [UInt8] {
        guard let cursor else { return [] }
        switch cursor.node.value {
        case .null: return []
        case .object:
            if let base64 = try cursor.member("base64_string") {
                return try decodeBase64(base64)
            }
            return try readBody(cursor.member("string"))
        default:
            return try scalarBytes(cursor)
        }
    }

    private static func scalarBytes(_ cursor: DocumentCursor) throws(CassetteError) -> [UInt8] {
        if case .binary(let bytes) = cursor.node.value { return bytes }
        if cursor.node.tag == "!binary" { return try decodeBase64(cursor) }
        return Array(try cursor.scalarText().utf8)
    }

    private static func decodeBase64(_ cursor: DocumentCursor) throws(CassetteError) -> [UInt8] {
        if case .binary(let bytes) = cursor.node.value { return bytes }
        guard let bytes = Base64.decode(try cursor.string(), ignoringWhitespace: true) else {
            throw cursor.error(expected: "base64 text", found: "text that is not base64")
        }
        return bytes
    }
}
