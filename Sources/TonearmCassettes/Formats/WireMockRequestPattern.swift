import Tonearm

/// Turns a WireMock request pattern's URL and query matchers into a ``Rule`` target, an anchored
/// regular expression and query conditions.
///
/// WireMock matches URLs as the client sent them, without scheme and host. Path matchers
/// (`urlPath`, `urlPathPattern`) become `^(?:…)$` over the normalised path; `urlPattern` matches the
/// rule's URL target (origin made optional, then path and sorted query). An exact `url` is the whole
/// path and query, for every method (WireMock answers `/t?a=1&b=2` only to a `url` that says `b=2`): it
/// matches the URL target with the mapping's query in canonical order, so parameter order and
/// percent-encoding do not matter but an extra parameter does. `queryParameters` become
/// ``QueryCondition``s on decoded values. A `urlPathTemplate` (WireMock 3) matches the normalised path
/// with each `{name}` standing for one or more characters other than `/` and `**` for any text
/// (``PathTemplate``); its parameters are tested by the rule's path parameter conditions.
struct WireMockRequestPattern {
    var target: Rule.Target = .path
    var pattern = "^(?:.*)$"
    var query: [QueryCondition] = []

    static let optionalOrigin = "(?:[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*)?"

    static func make(
        url: String?, urlPath: String?, urlPattern: String?, urlPathPattern: String?, urlPathTemplate: PathTemplate? = nil,
        query: [QueryCondition]
    ) -> WireMockRequestPattern {
        if let url {
            let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var exact = escape(String(parts[0]))
            if parts.count > 1 {
                var mappingQuery = String(parts[1])
                let pairs = mappingQuery.withUTF8 { FormEncoding.canonicalPairs(UnsafeRawBufferPointer($0), ignoring: []) }
                var canonical: [UInt8] = []
                FormEncoding.serialize(pairs, appendingTo: &canonical)
                if !canonical.isEmpty { exact += "\\?" + escape(String(decoding: canonical, as: UTF8.self)) }
            }
            return WireMockRequestPattern(target: .url, pattern: "^" + optionalOrigin + "(?:\(exact))$", query: query)
        }
        // Beside other URL matchers the first of url, urlPattern, urlPath, urlPathPattern and
        // urlPathTemplate counts, in WireMock's order (UrlPattern.fromOneOf).
        if let urlPattern {
            return WireMockRequestPattern(target: .url, pattern: "^" + optionalOrigin + "(?:\(urlPattern))$", query: query)
        }
        if let urlPath {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(escape(urlPath)))$", query: query)
        }
        if let urlPathPattern {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(urlPathPattern))$", query: query)
        }
        if let urlPathTemplate {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(pattern(of: urlPathTemplate)))$", query: query)
        }
        return WireMockRequestPattern(target: .path, pattern: "^(?:.*)$", query: query)
    }

    /// The regular expression a path template stands for: literals escaped, `[^/]+` for a variable,
    /// `.*` for a wildcard.
    static func pattern(of template: PathTemplate) -> String {
        template.pieces.map { piece in
            switch piece {
            case .literal(let text): escape(text)
            case .variable: "[^/]+"
            case .wildcard: ".*"
            }
        }.joined()
    }

    /// `text` with regular-expression metacharacters escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
