/// How a body was read for the canonical form.
///
/// New content types may get their own reading (multipart forms, say), so this is a struct with static
/// members rather than an enum: write `.json`, `.form` or `.raw`, compare with `==`, and read
/// ``rawValue``.
public struct BodyKind: Sendable, Hashable, CustomStringConvertible {
    /// Internal so the canonicalizer can switch over the readings exhaustively.
    enum Storage: String, Sendable, Hashable {
        case json, form, raw
    }

    let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// RFC 8785 canonical JSON.
    public static var json: BodyKind { BodyKind(.json) }
    /// `application/x-www-form-urlencoded` pairs, canonical and sorted like a query.
    public static var form: BodyKind { BodyKind(.form) }
    /// The bytes as sent: any other content type, an empty body, or JSON that did not parse.
    public static var raw: BodyKind { BodyKind(.raw) }

    /// The name used in miss reports: `json`, `form` or `raw`.
    public var rawValue: String { storage.rawValue }

    /// The kind named `rawValue` (`json`, `form` or `raw`), or `nil`.
    public init?(rawValue: String) {
        guard let storage = Storage(rawValue: rawValue) else { return nil }
        self.init(storage)
    }

    /// ``rawValue``.
    public var description: String { rawValue }

    /// Reads `contentType` (a `Content-Type` value, parameters allowed) the way the canonical form does.
    /// ``MediaType`` holds the rules, shared with every module that must read a body the same way.
    static func forContentType(_ contentType: String?, additionalJSON: Set<String>) -> BodyKind {
        guard let contentType else { return .raw }
        let essence = MediaType.essence(of: contentType)
        if MediaType.isJSON(essence: essence, additional: additionalJSON) { return .json }
        if MediaType.isForm(essence: essence) { return .form }
        return .raw
    }
}
