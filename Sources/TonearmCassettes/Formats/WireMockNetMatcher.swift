import Tonearm

/// One WireMock.Net matcher object, `{Name, Pattern | Patterns, IgnoreCase, RejectOnMatch}`, read as
/// the text it accepts: a literal for a track, or a regular expression for a rule.
///
/// `ExactMatcher` and `WildcardMatcher` (`*` any run of characters, `?` one) match the whole text;
/// `RegexMatcher` is searched in it, as .NET's `Regex.IsMatch` does; several patterns are alternatives.
struct WireMockNetMatcher {
    let cursor: DocumentCursor
    /// `WildcardMatcher`, `JsonMatcher`…
    let name: String
    /// `Pattern`, or each of `Patterns`.
    let patterns: [DocumentCursor]
    let ignoresCase: Bool
    let rejectsOnMatch: Bool

    init(_ cursor: DocumentCursor) throws(CassetteError) {
        self.cursor = cursor
        name = try cursor.required("Name", expected: "the matcher's name").string()
        if let list = try cursor.member("Patterns"), case .array = list.node.value {
            patterns = try list.elements()
        } else {
            patterns = try cursor.member("Pattern").map { [$0] } ?? []
        }
        ignoresCase = try cursor.optionalFlag("IgnoreCase")
        rejectsOnMatch = try cursor.optionalFlag("RejectOnMatch")
    }

    /// The one text this matcher accepts, when it accepts exactly one (an exact or wildcard-free
    /// pattern, case-sensitive, not negated).
    func literal() throws(CassetteError) -> String? {
        guard !ignoresCase, !rejectsOnMatch, patterns.count == 1, let only = patterns.first, only.isString else { return nil }
        let text = try only.string()
        switch name {
        case "ExactMatcher": return text
        case "WildcardMatcher": return text.contains("*") || text.contains("?") ? nil : text
        default: return nil
        }
    }

    /// The regular expression accepting what this string matcher accepts, or `nil` for matchers that
    /// are not string matchers Tonearm runs (negated ones included).
    func regex() throws(CassetteError) -> String? {
        guard !rejectsOnMatch, !patterns.isEmpty else { return nil }
        var alternatives: [String] = []
        for pattern in patterns {
            guard pattern.isString else { return nil }
            let text = try pattern.string()
            switch name {
            case "ExactMatcher": alternatives.append("^" + WireMockRequestPattern.escape(text) + "$")
            case "WildcardMatcher": alternatives.append("^" + Self.wildcard(text) + "$")
            case "RegexMatcher": alternatives.append(text)
            default: return nil
            }
        }
        let joined = alternatives.count == 1 ? alternatives[0] : alternatives.map { "(?:\($0))" }.joined(separator: "|")
        return ignoresCase ? "(?i)(?:" + joined + ")" : joined
    }

    /// The condition a header or query value must meet: equality for one exact text, else the pattern.
    func textCondition() throws(CassetteError) -> TextCondition? {
        if name == "ExactMatcher", let literal = try literal() { return .equals(literal) }
        return try regex().map(TextCondition.matches)
    }

    /// A wildcard pattern as a regular expression: `*` any run of characters, `?` any one, the rest literal.
    static func wildcard(_ pattern: String) -> String {
        var regex = ""
        for character in pattern {
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            default: regex += WireMockRequestPattern.escape(String(character))
            }
        }
        return regex
    }
}

extension DocumentCursor {
    /// A boolean member that may be missing or `null` (false then), as .NET serialises `bool?`.
    func optionalFlag(_ key: String) throws(CassetteError) -> Bool {
        try member(key)?.bool() ?? false
    }
}
