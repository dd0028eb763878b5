/// How a `Content-Type` value is read (docs/key-spec.md §5): the one definition of "this body is JSON"
/// and "this body is a form", for the canonical form and for every module that must agree with it
/// (redaction, cassette body storage).
package enum MediaType {
    /// The media type of a `Content-Type` value: the text before any ";", trimmed of spaces and tabs,
    /// ASCII letters lowercased (`Application/JSON; charset=utf-8` gives `application/json`).
    package static func essence(of contentType: String) -> String {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(mediaType).trimmingHTTPWhitespace.asciiLowercased
    }

    /// The parameter `name` (ASCII case ignored) of a `Content-Type` value, unquoted (`charset` of
    /// `text/plain; Charset="utf-8"` is `utf-8`); `nil` without one.
    package static func parameter(_ name: String, in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";", omittingEmptySubsequences: false).dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, String(pair[0]).trimmingHTTPWhitespace.asciiLowercased == name.asciiLowercased else { continue }
            let value = String(pair[1]).trimmingHTTPWhitespace
            return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }

    /// Whether `contentType` names JSON: `application/json`; a structured-syntax `+json` type
    /// (RFC 6839 §3.1), that is `type "/" name "+json"` with a non-empty type and name, so
    /// `application/vnd.api+json` is JSON but `foo+json` (no "/"), `+json` and `application/+json` are
    /// not; or one of `additional`, lowercased media types the user declared.
    package static func isJSON(_ contentType: String, additional: Set<String> = []) -> Bool {
        isJSON(essence: essence(of: contentType), additional: additional)
    }

    /// ``isJSON(_:additional:)`` for a media type that is already an ``essence(of:)``.
    package static func isJSON(essence: String, additional: Set<String> = []) -> Bool {
        if essence == "application/json" || additional.contains(essence) { return true }
        let suffix = "+json"
        guard essence.hasSuffix(suffix) else { return false }
        let parts = essence.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].count > suffix.utf8.count
    }

    /// Whether a possibly absent `Content-Type` value names a stream of Server-Sent Events
    /// (`text/event-stream`): recorded with its events' times, kept one object per event.
    package static func isEventStream(_ contentType: String?) -> Bool {
        contentType.map { essence(of: $0) == "text/event-stream" } ?? false
    }

    /// Whether `contentType` is `application/x-www-form-urlencoded`, whose body is read like a query.
    package static func isForm(_ contentType: String) -> Bool { isForm(essence: essence(of: contentType)) }

    /// ``isForm(_:)`` for a media type that is already an ``essence(of:)``.
    package static func isForm(essence: String) -> Bool { essence == "application/x-www-form-urlencoded" }
}
