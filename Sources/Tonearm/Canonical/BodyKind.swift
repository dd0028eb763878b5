/// How a body was read for the canonical form.
public enum BodyKind: String, Sendable, Hashable {
    /// RFC 8785 canonical JSON.
    case json
    /// `application/x-www-form-urlencoded` pairs, canonical and sorted like a query.
    case form
    /// The bytes as sent: any other content type, an empty body, or JSON that did not parse.
    case raw

    /// Reads `contentType` (a `Content-Type` value, parameters allowed) the way the canonical form does.
    package static func forContentType(_ contentType: String?, additionalJSON: Set<String>) -> BodyKind {
        guard let contentType else { return .raw }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let normalized = mediaType.trimmingHTTPWhitespace.asciiLowercased
        if normalized == "application/json" || normalized.hasSuffix("+json")
            || additionalJSON.contains(normalized)
        {
            return .json
        }
        if normalized == "application/x-www-form-urlencoded" { return .form }
        return .raw
    }
}
