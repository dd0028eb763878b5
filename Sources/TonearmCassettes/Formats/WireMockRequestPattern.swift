import Tonearm

/// Turns a WireMock request pattern's URL and query matchers into a ``Rule`` target and an anchored
/// regular expression.
///
/// WireMock matches URLs as the client sent them, without scheme and host. Path matchers
/// (`urlPath`, `urlPathPattern`) become `^(?:…)$` over the normalised path. Matchers that involve the
/// query (`url`, `urlPattern`, or any `queryParameters`) match the rule's URL target, which carries
/// the origin and the sorted query: the origin is made optional, and each query parameter becomes a
/// look-ahead, so parameter order does not matter.
struct WireMockRequestPattern {
    var target: Rule.Target = .path
    var pattern = "^(?:.*)$"

    /// One `queryParameters` condition.
    enum QueryCondition {
        case equalTo(String)
        case matches(String)
        case contains(String)
        case absent
    }

    static let optionalOrigin = "(?:[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*)?"

    static func make(
        url: String?, urlPath: String?, urlPattern: String?, urlPathPattern: String?,
        query: [(name: String, condition: QueryCondition)]
    ) -> WireMockRequestPattern {
        var query = query
        var pathExpression = ".*"
        var pathOnly = true
        if let url {
            let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            pathExpression = escape(String(parts[0]))
            if parts.count > 1 {
                for pair in parts[1].split(separator: "&") {
                    let item = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    query.append((String(item[0]), .equalTo(item.count > 1 ? String(item[1]) : "")))
                }
            }
        } else if let urlPath {
            pathExpression = escape(urlPath)
        } else if let urlPathPattern {
            pathExpression = urlPathPattern
        } else if let urlPattern {
            pathExpression = urlPattern
            pathOnly = false
        }
        if pathOnly && query.isEmpty {
            return WireMockRequestPattern(target: .path, pattern: "^(?:\(pathExpression))$")
        }
        let lookaheads = query.map { lookahead(name: $0.name, condition: $0.condition) }.joined()
        let rest = pathOnly ? "(?:\\?.*)?" : ""
        return WireMockRequestPattern(
            target: .url, pattern: "^" + lookaheads + optionalOrigin + "(?:\(pathExpression))" + rest + "$")
    }

    /// A look-ahead over the whole URL target requiring (or forbidding) one query parameter.
    static func lookahead(name: String, condition: QueryCondition) -> String {
        let inQuery = "[^?]*\\?(?:.*&)?" + escape(name)
        switch condition {
        case .equalTo(let value): return "(?=\(inQuery)=\(escape(value))(?:&|$))"
        case .matches(let expression): return "(?=\(inQuery)=(?:\(expression))(?:&|$))"
        case .contains(let value): return "(?=\(inQuery)=[^&]*\(escape(value)))"
        case .absent: return "(?!\(inQuery)(?:=|&|$))"
        }
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
