import Foundation
import Tonearm

/// HTTP Archive 1.2, as browser devtools, Charles, Proxyman, mitmproxy, Playwright and Polly.JS write it.
///
/// Import: `request.url` is taken as sent (its query already holds `queryString`), `postData.text` is
/// the body (or `postData.params` form-encoded when there is no text), `content.encoding: base64` is
/// decoded (also when `text` is a JSON array of base64 chunks, as Polly.JS writes it), and an entry with
/// status 0 and an `_error` becomes a simulated transport error. A `Content-Encoding` header follows
/// the rule every format does (`RecordedContentEncoding`): browsers store content decoded, so theirs
/// is dropped with a warning; Polly.JS stores the gzip bytes, so its header stays. HTTP/2 pseudo-headers (`:authority`...) are not real fields and are
/// left out.
public enum HARFormat {
    /// Reads a HAR file; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        try stream(bytes, file: file).collected()
    }

    /// Reads a HAR file up to its entries, which are then read one at a time as they are handed on
    /// (``StreamedImport``).
    static func stream(_ bytes: [UInt8], file: String?) throws(CassetteError) -> StreamedImport {
        let source = DocumentSource(file: file, bytes: bytes)
        // The entries are read one at a time from the validated text, not from a tree of the whole file.
        let options = JSONDocumentParser.Options(streamedPath: ["log", "entries"])
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source, options: options), source: source)
        let log = try root.required("log", expected: "the HAR \"log\" object")
        let entries = try log.required("entries", expected: "an array of entries")
        return StreamedImport(header: CassetteImport(cassette: Cassette())) { (each) throws(CassetteError) in
            var warnings: [ImportWarning] = []
            try entries.forEachElement(options: options) { (entry) throws(CassetteError) in
                try each(try readEntry(entry, file: file, warnings: &warnings))
            }
            return warnings
        }
    }

    private static func readEntry(_ entry: DocumentCursor, file: String?, warnings: inout [ImportWarning]) throws(CassetteError) -> CassetteEntry {
        var request = try readRequest(try entry.required("request", expected: "a request object"))
        let response = try entry.required("response", expected: "a response object")
        let outcome = try readOutcome(response, file: file, path: entry.path, warnings: &warnings)
        var pacing: BodyPacing?
        if case .response(let answer) = outcome, let parts = try response.member("_tonearmParts") {
            pacing = try NativeStreamCodec.readParts(parts, bodyCount: answer.body.count)
        }
        let recordedAt = try entry.member("startedDateTime")?.recordingTime(file: file, warnings: &warnings) { (value) throws(CassetteError) in
            Timestamp.parseISO8601(try value.string())
        }
        let name = try entry.optionalString("comment")  // Tonearm's HAR export writes track names here
        let webSocket = try HARWebSocketMessages.read(entry, startedAt: recordedAt)
        // Browsers write a socket's URL as ws:// or wss://; tracks name the HTTP URL the handshake went to.
        if webSocket != nil { request.url = HARWebSocketMessages.httpURL(request.url) }
        return CassetteEntry(Track(request: request, outcome: outcome, name: name, pacing: pacing, webSocket: webSocket), recordedAt: recordedAt)
    }

    private static func readRequest(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        let method = try cursor.required("method", expected: "a method string").string()
        var url = try cursor.required("url", expected: "a URL string").string()
        let headers = try readHeaders(cursor.member("headers"))
        if !url.contains("?"), let query = try cursor.member("queryString"), let pairs = try readPairs(query), !pairs.isEmpty {
            url += "?" + FormLiteral.encode(pairs)
        }
        var body: [UInt8] = []
        if let postData = try cursor.member("postData") {
            if let text = try postData.optionalString("text") {
                body = try decodeText(text, encoding: postData.optionalString("encoding"), at: postData)
            } else if let params = try postData.member("params"), let pairs = try readPairs(params) {
                body = Array(FormLiteral.encode(pairs).utf8)
            }
        }
        return Request(method: method, url: url, headers: headers, body: body)
    }

    private static func readOutcome(
        _ cursor: DocumentCursor, file: String?, path: DocumentPath, warnings: inout [ImportWarning]
    ) throws(CassetteError) -> Track.Outcome {
        let statusCursor = try cursor.required("status", expected: "a status code")
        let status = try statusCursor.int()
        let chromeError = try cursor.member("_error")?.scalarText()
        if let code = try cursor.optionalInt("_errorCode") {
            return .transportError(.other(code: code, message: chromeError ?? ""))
        }
        if status == 0 || chromeError != nil {
            return .transportError(ChromeNetError.transportError(chromeError))
        }
        guard RecordedLimits.statuses.contains(status) else {
            throw statusCursor.error(expected: RecordedLimits.statusDescription + " (or 0 for a failed request)", found: "\(status)")
        }
        let headers = try readHeaders(cursor.member("headers"))
        var body: [UInt8] = []
        if let content = try cursor.member("content"), let text = try content.member("text") {
            if case .array = text.node.value {
                body = try decodeChunks(text.elements())
            } else {
                body = try decodeText(text.string(), encoding: content.optionalString("encoding"), at: content)
            }
        }
        return .response(Response(status: status, headers: headers, body: body))
    }

    /// `text`, or with `encoding: base64` its bytes: one base64 string, or (Polly.JS's node-http
    /// adapter) a JSON array of base64 chunks written as text.
    private static func decodeText(_ text: String, encoding: String?, at cursor: DocumentCursor) throws(CassetteError) -> [UInt8] {
        guard encoding?.lowercased() == "base64" else { return Array(text.utf8) }
        if text.first == "[", let chunks = pollyChunks(text, at: cursor) { return try decodeChunks(chunks) }
        guard let bytes = Base64.decode(text, ignoringWhitespace: true) else {
            throw cursor.error(expected: "base64 text in \"text\" (encoding is base64)", found: "other text")
        }
        return bytes
    }

    /// The elements of `text` when it is a JSON array (of chunks); `nil` when it is not JSON.
    private static func pollyChunks(_ text: String, at cursor: DocumentCursor) -> [DocumentCursor]? {
        let source = DocumentSource(file: cursor.source.file, bytes: Array(text.utf8))
        guard let root = try? JSONDocumentParser.parse(source) else { return nil }
        return try? DocumentCursor(node: root, path: cursor.path.appending(.key("text")), source: source).elements()
    }

    /// Base64 chunks, each padded on its own, decoded and joined.
    private static func decodeChunks(_ chunks: [DocumentCursor]) throws(CassetteError) -> [UInt8] {
        var bytes: [UInt8] = []
        for chunk in chunks {
            guard let decoded = Base64.decode(try chunk.string(), ignoringWhitespace: true) else {
                throw chunk.error(expected: "a base64 chunk (content.text is a list of base64 chunks)", found: "other text")
            }
            bytes += decoded
        }
        return bytes
    }

    static func readHeaders(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        (try readPairs(cursor) ?? []).filter { !$0.name.hasPrefix(":") }.map { HeaderField($0.name, $0.value) }
    }

    /// `[{"name": …, "value": …}]` as pairs. A value that is an array (Polly.JS's node-fetch adapter
    /// recorded multi-valued headers as the arrays node-fetch handed it) is one pair per element.
    private static func readPairs(_ cursor: DocumentCursor?) throws(CassetteError) -> [(name: String, value: String)]? {
        guard let cursor else { return nil }
        var pairs: [(name: String, value: String)] = []
        for item in try cursor.elements() {
            let name = try item.required("name", expected: "a name").string()
            guard let value = try item.member("value") else {
                pairs.append((name, ""))
                continue
            }
            if case .array = value.node.value {
                for element in try value.elements() { pairs.append((name, try element.scalarText())) }
            } else {
                pairs.append((name, try value.scalarText()))
            }
        }
        return pairs
    }
}

/// Chrome's `net::ERR_*` names as transport errors.
enum ChromeNetError {
    static func transportError(_ name: String?) -> TransportError {
        guard let name else { return .other(code: 0, message: "aborted: no response was received") }
        let code = name.replacingOccurrences(of: "net::", with: "")
        switch code {
        case "ERR_INTERNET_DISCONNECTED": return .notConnectedToInternet
        case "ERR_TIMED_OUT", "ERR_CONNECTION_TIMED_OUT": return .timedOut
        case "ERR_NAME_NOT_RESOLVED", "ERR_NAME_RESOLUTION_FAILED": return .cannotFindHost
        case "ERR_CONNECTION_REFUSED", "ERR_ADDRESS_UNREACHABLE": return .cannotConnectToHost
        case "ERR_CONNECTION_RESET": return .connectionReset
        case "ERR_CONNECTION_CLOSED", "ERR_CONNECTION_ABORTED", "ERR_EMPTY_RESPONSE": return .networkConnectionLost
        case "ERR_INVALID_CHUNKED_ENCODING", "ERR_CONTENT_LENGTH_MISMATCH": return .badServerResponse
        case "ERR_INVALID_HTTP_RESPONSE": return .cannotParseResponse
        case _ where code.hasPrefix("ERR_SSL") || code.hasPrefix("ERR_CERT"): return .secureConnectionFailed
        default: return .other(code: 0, message: name)
        }
    }

    /// The Chrome name written for a transport error on HAR export.
    static func name(_ error: TransportError) -> String {
        switch error {
        case .notConnectedToInternet: "net::ERR_INTERNET_DISCONNECTED"
        case .timedOut: "net::ERR_TIMED_OUT"
        case .cannotFindHost: "net::ERR_NAME_NOT_RESOLVED"
        case .cannotConnectToHost: "net::ERR_CONNECTION_REFUSED"
        case .networkConnectionLost: "net::ERR_EMPTY_RESPONSE"
        case .connectionReset: "net::ERR_CONNECTION_RESET"
        case .badServerResponse: "net::ERR_INVALID_CHUNKED_ENCODING"
        case .cannotParseResponse: "net::ERR_INVALID_HTTP_RESPONSE"
        case .secureConnectionFailed: "net::ERR_SSL_PROTOCOL_ERROR"
        default: error.message ?? "net::ERR_FAILED"
        }
    }
}
