extension Rule.Target {
    /// The text a rule's pattern is matched against for `url`: the normalised path for `.path`; for
    /// `.url`, the normalised URL without query, then `?` and the canonical sorted query when there is one.
    ///
    /// Public so tools that compare other matchers with a ``RuleSet`` can feed them the same strings.
    package func text(of url: NormalizedURL) -> String {
        switch self {
        case .path:
            return url.path
        case .url:
            return url.withUnsafeBytes { withoutQuery, query in
                var text = Array(withoutQuery)
                if let query, !query.isEmpty {
                    text.append(UInt8(ascii: "?"))
                    let queryStart = text.count
                    FormEncoding.appendCanonical(query, ignoring: [], to: &text)
                    if text.count == queryStart { text.removeLast() }
                }
                return String(decoding: text, as: UTF8.self)
            }
        }
    }
}
