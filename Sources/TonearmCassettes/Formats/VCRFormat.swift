import Foundation
import Tonearm

/// VCR-style YAML cassettes: Ruby VCR (`http_interactions`) and vcrpy (`interactions`).
///
/// Bodies may be plain strings, `{string: …}`, `{base64_string: …}`, YAML `!!binary` or Ruby's local
/// `!binary` tag. Bytes are kept exactly as recorded: a gzip body stays gzip, together with its
/// `Content-Encoding: gzip` header, so the cassette holds what the server sent; consumers that must
/// hand over decoded bodies (`TonearmURLSession`) decode them (docs/cassette-format.md, "gzip bodies").
///
/// An empty file is a cassette with no interactions (VCR writes none until something is recorded);
/// a VCR 1.x file, a top-level list of `!ruby/struct:VCR::HTTPInteraction` mappings, is read too.
/// Header values stored as `!!binary` (vcrpy records `bytes` values so) are decoded. A member the
/// reader does not know that carries data (vcrpy's `parsed_body`...) is a warning, never dropped
/// silently.
public enum VCRFormat {
    /// Reads a VCR cassette; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        guard let document = try YAMLDocumentReader.readIfPresent(source) else { return CassetteImport(cassette: Cassette()) }
        var root = DocumentCursor(root: document, source: source)
        if root.isNull { return CassetteImport(cassette: Cassette()) }  // a lone `---`
        if case .array = root.node.value {
            root = DocumentCursor(root: Self.withoutSymbolKeys(document), source: source)
            if let first = try root.elements().first { try refuseFormatsBeforeOne(first) }
        }
        let interactions: DocumentCursor
        if case .array = root.node.value {
            interactions = root
        } else if let ruby = try root.member("http_interactions") {
            interactions = ruby
        } else if let python = try root.member("interactions") {
            interactions = python
        } else if root.has("http_interactions") || root.has("interactions") {
            return CassetteImport(cassette: Cassette())
        } else {
            throw root.missing(
                "http_interactions",
                expected: "\"http_interactions\" (Ruby VCR), \"interactions\" (vcrpy) or a list of interactions (VCR 1.x)")
        }
        var entries: [CassetteEntry] = []
        var warnings: [ImportWarning] = []
        for interaction in try interactions.elements() {
            entries.append(try readInteraction(interaction, file: file, warnings: &warnings))
        }
        return CassetteImport(cassette: Cassette(entries: entries), warnings: warnings)
    }

    /// VCR 0.x and vcrpy before 1.0 wrote lists their own later versions do not read (they migrate
    /// them): said plainly rather than as a missing member.
    private static func refuseFormatsBeforeOne(_ first: DocumentCursor) throws(CassetteError) {
        if let tag = first.node.tag, tag.hasSuffix("VCR::RecordedResponse") {
            throw first.error(
                expected: "a VCR 1.x or later cassette (this is VCR 0.x's list of recorded Net::HTTP responses, which VCR 1.0 migrated rather than read)",
                found: tag)
        }
        if case .object = first.node.value, let request = try first.member("request"), case .object = request.node.value,
            request.has("host"), !request.has("uri")
        {
            throw request.error(
                expected: "a vcrpy 1.0 or later cassette (this is vcrpy's format before 1.0, which vcrpy itself refuses: migrate it with python -m vcr.migration)",
                found: "a request with host, port and url instead of uri")
        }
    }

    /// A VCR 1.x document with Ruby symbol keys (`:request:`, `:method:`, as Ruby 1.8's YAML wrote the
    /// structs' members) keyed by plain names, as later Rubies wrote the same structs.
    private static func withoutSymbolKeys(_ node: DocumentNode) -> DocumentNode {
        var node = node
        switch node.value {
        case .object(let members):
            node.value = .object(members.map { member in
                DocumentNode.Member(key: member.key.hasPrefix(":") ? String(member.key.dropFirst()) : member.key, value: withoutSymbolKeys(member.value))
            })
        case .array(let elements):
            node.value = .array(elements.map(withoutSymbolKeys))
        default:
            break
        }
        return node
    }

    /// What each mapping holds that the reader takes or knowingly leaves (`adapter_metadata`,
    /// `http_version`, a status `message`); anything else carrying data is reported.
    private static let interactionMembers = ["request", "request_signature", "response", "recorded_at", "recorded", "recorded_with"]
    private static let requestMembers = ["method", "uri", "headers", "body"]
    private static let responseMembers = ["status", "status_code", "headers", "body", "http_version", "adapter_metadata", "url"]
    private static let bodyMembers = ["string", "base64_string", "encoding", "file"]

    private static func readInteraction(
        _ cursor: DocumentCursor, file: String?, warnings: inout [ImportWarning]
    ) throws(CassetteError) -> CassetteEntry {
        if case .array = cursor.node.value { return try readPositionalInteraction(cursor, file: file, warnings: &warnings) }
        // VCR 1.0's betas called it the request's signature.
        let request = if let signature = try cursor.member("request_signature") { signature } else {
            try cursor.required("request", expected: "a request mapping")
        }
        let response = try cursor.required("response", expected: "a response mapping")
        warnings += try unreadData(in: cursor, known: interactionMembers, file: file)
        warnings += try unreadData(in: request, known: requestMembers, file: file)
        warnings += try unreadData(in: response, known: responseMembers, file: file)
        for body in [try request.member("body"), try response.member("body")].compactMap({ $0 }) where body.has("string") || body.has("base64_string") {
            warnings += try unreadData(in: body, known: bodyMembers, file: file)
            // R vcr can write a body to a file of its own and keep only the file's name in `string`.
            if let separate = try body.member("file"), ["true", "yes"].contains(try separate.scalarText().lowercased()) {
                warnings.append(ImportWarning(
                    file: file, path: separate.path.description,
                    message: "the body was written to a file of its own, which is not read; the file's name is replayed as the body"))
            }
        }
        let track = Track(request: try readRequest(request), response: try readResponse(response))
        // OkReplay (and Java Betamax) tapes call it `recorded`.
        let time = try cursor.member("recorded_at")
        let recordedAt = try (time != nil ? time : cursor.member("recorded"))?.recordingTime(file: file, warnings: &warnings) { (value) throws(CassetteError) in
            Timestamp.parse(try value.scalarText())
        }
        return CassetteEntry(track, recordedAt: recordedAt)
    }

    /// OkReplay's tapes from before its rename (walkman) write each interaction as sequences:
    /// `[recorded, [method, uri, headers, body?], [status, headers, body]]`.
    private static func readPositionalInteraction(
        _ cursor: DocumentCursor, file: String?, warnings: inout [ImportWarning]
    ) throws(CassetteError) -> CassetteEntry {
        let parts = try cursor.elements()
        guard parts.count == 3 else {
            throw cursor.error(expected: "an interaction mapping, or OkReplay's [recorded, request, response]", found: "a list of \(parts.count)")
        }
        let request = try parts[1].elements(), response = try parts[2].elements()
        // A request without a body has no fourth element.
        guard request.count == 3 || request.count == 4, response.count == 3 else {
            throw cursor.error(
                expected: "OkReplay's request [method, uri, headers, body?] and response [status, headers, body]",
                found: "lists of \(request.count) and \(response.count)")
        }
        let track = Track(
            request: Request(
                method: try request[0].scalarText().uppercased(), url: try request[1].string(),
                headers: try readHeaders(request[2].isNull ? nil : request[2]), body: try readBody(request.count == 4 ? request[3] : nil)),
            response: Response(
                status: try response[0].statusCode(), headers: try readHeaders(response[1].isNull ? nil : response[1]),
                body: try readBody(response[2])))
        let recordedAt = try parts[0].recordingTime(file: file, warnings: &warnings) { (value) throws(CassetteError) in
            Timestamp.parse(try value.scalarText())
        }
        return CassetteEntry(track, recordedAt: recordedAt)
    }

    private static func readRequest(_ cursor: DocumentCursor) throws(CassetteError) -> Request {
        // VCR 1.x wrote the method as a Ruby symbol, `:get`.
        var method = try cursor.required("method", expected: "a method").scalarText().uppercased()
        if method.hasPrefix(":") { method.removeFirst() }
        let url = try cursor.required("uri", expected: "a request URI").string()
        return Request(method: method, url: url, headers: try readHeaders(cursor.member("headers")), body: try readBody(cursor.member("body")))
    }

    private static func readResponse(_ cursor: DocumentCursor) throws(CassetteError) -> Response {
        // Early Betamax cassettes (as its older documentation shows them) hold a bare `status_code`.
        let status = try cursor.member("status")
        guard let statusCursor = try status != nil ? status : cursor.member("status_code") else {
            throw cursor.missing("status", expected: "a status (or Betamax's \"status_code\")")
        }
        let code: Int
        if case .object = statusCursor.node.value {
            // R vcr names it `status_code` (as text, '200').
            let named = try statusCursor.member("code")
            guard let number = try named != nil ? named : statusCursor.member("status_code") else {
                throw statusCursor.missing("code", expected: "a status code (or R vcr's \"status_code\")")
            }
            code = try number.statusCode()
        } else {
            code = try statusCursor.statusCode()
        }
        return Response(status: code, headers: try readHeaders(cursor.member("headers")), body: try readBody(cursor.member("body")))
    }

    /// `Name: [value, …]` (both dialects) or `Name: value`; or a list of `[name, [value, …]]` pairs
    /// (vcrpy under Python 2 wrote `!!python/tuple`s) or of raw `Name: value` lines (vcrpy before 1.0).
    static func readHeaders(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderField] {
        guard let cursor else { return [] }
        var fields: [HeaderField] = []
        if case .array = cursor.node.value {
            // R vcr writes R's empty named list, no headers, as `[]`.
            for item in try cursor.elements() {
                if case .array(let elements) = item.node.value, elements.count == 2 {
                    let pair = try item.elements()
                    let name = try pair[0].scalarText()
                    let values = if case .array = pair[1].node.value { try pair[1].elements() } else { [pair[1]] }
                    for value in values where !value.isNull { fields.append(HeaderField(name, try headerText(value))) }
                } else if item.isString, let colon = try item.string().firstIndex(of: ":") {
                    let line = try item.string()
                    fields.append(HeaderField(
                        String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)))
                } else {
                    throw item.error(expected: "a header as [name, values] or a \"Name: value\" line")
                }
            }
            return fields
        }
        for (name, value) in try cursor.members() {
            if case .array = value.node.value {
                for item in try value.elements() where !item.isNull { fields.append(HeaderField(name, try headerText(item))) }
            } else if !value.isNull {
                fields.append(HeaderField(name, try headerText(value)))
            }
        }
        return fields
    }

    /// A header value: text, or `!!binary` bytes read as UTF-8 (ISO 8859-1 when they are not, which
    /// is how HTTP defines field bytes).
    private static func headerText(_ cursor: DocumentCursor) throws(CassetteError) -> String {
        guard case .binary(let bytes) = cursor.node.value else { return try cursor.scalarText() }
        return String(validating: bytes, as: UTF8.self) ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// A warning for each member of `cursor` outside `known` that holds something: its data would
    /// otherwise vanish without a word, and a replayed request would then miss for no visible reason.
    static func unreadData(in cursor: DocumentCursor, known: [String], file: String?) throws(CassetteError) -> [ImportWarning] {
        guard case .object = cursor.node.value else { return [] }
        return try cursor.members().filter { !known.contains($0.key) && $0.value.carriesData }.map { member in
            ImportWarning(
                file: file, path: member.value.path.description,
                message: "not read: Tonearm does not know \"\(member.key)\" here, so its \(member.value.node.kindDescription) is left out of the replay")
        }
    }

    /// A body in any of the dialects' shapes.
    static func readBody(_ cursor: DocumentCursor?) throws(CassetteError) -> [UInt8] {
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
