import Foundation
import Tonearm

/// How a body is stored in a JSON cassette: as a JSON value, as text, or as base64 — whichever keeps
/// the exact bytes and is easiest to read in a diff.
enum BodyStorage: Equatable {
    case empty
    /// Compact JSON text whose bytes are reproduced exactly by re-indenting and compacting.
    case json([UInt8])
    case text(String)
    case base64([UInt8])

    /// The storage for `bytes`, sent with `contentType`.
    ///
    /// JSON only when the content type says JSON and the bytes are compact (no white space outside
    /// strings), because only then does the embedded value give back the same bytes; text when the
    /// bytes are UTF-8 without control characters other than tab, CR and LF; base64 otherwise.
    static func choose(for bytes: [UInt8], contentType: String?) -> BodyStorage {
        if bytes.isEmpty { return .empty }
        if MediaType.isJSON(contentType), JSONDocumentParser.isCompactJSON(bytes) { return .json(bytes) }
        if let text = readableText(bytes) { return .text(text) }
        return .base64(bytes)
    }

    /// `bytes` as a string when they are UTF-8 text meant for people.
    static func readableText(_ bytes: [UInt8]) -> String? {
        let hasControl = bytes.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }
        guard !hasControl else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    var bytes: [UInt8] {
        switch self {
        case .empty: []
        case .json(let bytes), .base64(let bytes): bytes
        case .text(let text): Array(text.utf8)
        }
    }

    /// `{"json": …}`, `{"text": "…"}` or `{"base64": "…"}`; `nil` when empty.
    var output: JSONOutput? {
        switch self {
        case .empty: nil
        case .json(let bytes): .object([("json", .json(bytes))])
        case .text(let text): .object([("text", .string(text))])
        case .base64(let bytes): .object([("base64", .string(Base64.encode(bytes)))])
        }
    }

    /// The compact bytes of a `json` member's value (parsed as raw, so its exact text).
    static func jsonBytes(_ value: DocumentCursor) -> [UInt8] {
        guard case .raw(let range) = value.node.value else { return JSONOutput(value.node).compact() }
        return value.source.bytes.withUnsafeBufferPointer { JSONLayout.compact(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Reads a body written by ``output``. The `json` member must have been parsed as raw.
    static func read(_ cursor: DocumentCursor) throws(CassetteError) -> [UInt8] {
        let members = try cursor.members()
        guard members.count == 1, let (key, value) = members.first else {
            throw cursor.error(expected: "an object with exactly one of \"json\", \"text\" or \"base64\"", found: "\(members.count) members")
        }
        switch key {
        case "json":
            return jsonBytes(value)
        case "text":
            return Array(try value.string().utf8)
        case "base64":
            guard let bytes = Base64.decode(try value.string()) else { throw value.error(expected: "base64 text", found: "other text") }
            return bytes
        default:
            throw cursor.error(expected: "\"json\", \"text\" or \"base64\"", found: "\"\(key)\"")
        }
    }
}

/// Reading `Content-Type` values, as the core does (``MediaType`` is the one definition of JSON), so a
/// body that redaction and the linter read as JSON is exactly one that matching compares as JSON.
extension MediaType {
    /// Whether a possibly absent `Content-Type` value names JSON.
    static func isJSON(_ contentType: String?) -> Bool {
        contentType.map { isJSON($0) } ?? false
    }

    /// Whether a body of this type is text a person can read (stored as text rather than base64).
    package static func isText(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = essence(of: contentType)
        return type.hasPrefix("text/") || isJSON(essence: type) || type.hasSuffix("+xml") || type == "application/xml"
            || type == "application/javascript" || isForm(essence: type)
    }
}
