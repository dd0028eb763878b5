/// How a body was read for the canonical form.
public enum BodyKind: String, Sendable, Hashable {
    /// RFC 8785 canonical JSON.
    case json
    /// `application/x-www-form-urlencoded` pairs, canonical and sorted like a query.
    case form
    /// The bytes as sent: any other content type, an empty body, or JSON that did not parse.
    case raw

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
