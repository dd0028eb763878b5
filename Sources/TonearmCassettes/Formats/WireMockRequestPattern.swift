import Tonearm

/// Turns a WireMock request pattern's URL and query matchers into a ``Rule`` target, an anchored
/// regular expression and query conditions.
///
/// WireMock matches URLs as the client sent them, without scheme and host. Path matchers
/// (`urlPath`, `urlPathPattern`) become `^(?:…)$` over the normalised path; `urlPattern` matches the
/// rule's URL target (origin made optional, then path and sorted query). Query parameters — from
/// `queryParameters` or from the query of an exact `url` — become ``QueryCondition``s on decoded values,
/// so parameter order and percent-encoding do not matter, and the path pattern keeps its literal
/// prefix for the rule set's prefilter.
struct WireMockRequestPattern {
    var target: Rule.Target = .path
    var pattern = "^(?:.*)$"
    var query: [QueryCondition] = []

    static let optionalOrigin = "(?:[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*)?"

    static func make(
        url: String?, urlPath: String?, urlPattern: String?, urlPathPattern: String?, query: [QueryCondition]
    ) -> WireMockRequestPattern {
        var query = query
        if let url {
            let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count > 1 {
                query += FormEncoding.pairs(parts[1]).map { QueryCondition($0.decodedName, .equals($0.decodedValue)) }
            }
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(escape(String(parts[0]))))$", query: query)
        }
        if let urlPath {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(escape(urlPath)))$", query: query)
        }
        if let urlPathPattern {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(urlPathPattern))$", query: query)
        }
        if let urlPattern {
            return WireMockRequestPattern(target: .url, pattern: "^" + optionalOrigin + "(?:\(urlPattern))$", query: query)
        }
        return WireMockRequestPattern(target: .path, pattern: "^(?:.*)$", query: query)
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
