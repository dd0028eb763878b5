/// A rule with its expressions compiled and its prefilter facts worked out, once, at load time.
struct CompiledRule: @unchecked Sendable {
    // @unchecked: `Regex<AnyRegexOutput>` is not declared Sendable, but a compiled Regex is an immutable
    // program; these values are created at load time, never mutated, and matching only reads them.
    let rule: Rule
    /// Position in the declared list.
    let declaredIndex: Int
    let regex: Regex<AnyRegexOutput>
    let uppercasedMethod: String?
    let literalPrefix: String
    /// Literal text every match contains, beyond the prefix; empty when none is known.
    let requiredLiteral: [UInt8]
    /// `^…$` patterns are run with `wholeMatch`, which gives up sooner than a search from every position.
    let isAnchoredAtBothEnds: Bool
    let queryRegexes: [Regex<AnyRegexOutput>?]
    let headerRegexes: [Regex<AnyRegexOutput>?]
    let bodyRegexes: [Regex<AnyRegexOutput>?]

    init(_ rule: Rule, declaredIndex: Int) throws(RuleError) {
        func compile(_ pattern: String) throws(RuleError) -> Regex<AnyRegexOutput> {
            do {
                return try PatternSafety.compile(pattern)
            } catch {
                throw RuleError(ruleIndex: declaredIndex, ruleName: rule.name, pattern: pattern, message: error.message)
            }
        }
        func compileCondition(_ condition: TextCondition) throws(RuleError) -> Regex<AnyRegexOutput>? {
            guard case .matches(let pattern) = condition.storage else { return nil }
            return try compile(pattern)
        }
        self.rule = rule
        self.declaredIndex = declaredIndex
        regex = try compile(rule.pattern)
        uppercasedMethod = rule.method?.asciiUppercased
        literalPrefix = LiteralPrefix.of(rule.pattern)
        let literal = RequiredLiteral.of(rule.pattern)
        requiredLiteral = literal.utf8.count > literalPrefix.utf8.count ? Array(literal.utf8) : []
        isAnchoredAtBothEnds = rule.pattern.hasPrefix("^") && rule.pattern.hasSuffix("$")
            && !rule.pattern.hasSuffix("\\$") && !rule.pattern.contains("|")
        var queryRegexes: [Regex<AnyRegexOutput>?] = []
        for condition in rule.query { queryRegexes.append(try compileCondition(condition.condition)) }
        self.queryRegexes = queryRegexes
        var headerRegexes: [Regex<AnyRegexOutput>?] = []
        for header in rule.headers { headerRegexes.append(try compileCondition(header.condition)) }
        self.headerRegexes = headerRegexes
        var bodyRegexes: [Regex<AnyRegexOutput>?] = []
        for condition in rule.body { bodyRegexes.append(try compileCondition(condition.condition)) }
        self.bodyRegexes = bodyRegexes
    }

    /// Whether the rule answers `request`, whose pattern target is `target`.
    func matches(_ request: IncomingRequest, target: String, parts: inout LazyRequestParts) -> Bool {
        if let uppercasedMethod, uppercasedMethod != request.canonical.method { return false }
        if !literalPrefix.isEmpty, !target.utf8.starts(with: literalPrefix.utf8) { return false }
        if !requiredLiteral.isEmpty, !ByteSearch.contains(requiredLiteral, in: target) { return false }
        guard isAnchoredAtBothEnds ? target.wholeMatch(of: regex) != nil : target.contains(regex) else { return false }
        if !rule.query.isEmpty, !queryHolds(in: parts.queryValues) { return false }
        for (offset, header) in rule.headers.enumerated() {
            let value = request.request.headers.first(named: header.name)?.trimmingHTTPWhitespace
            guard Self.holds(header.condition, regex: headerRegexes[offset], for: value) else { return false }
        }
        for (offset, condition) in rule.body.enumerated() {
            guard let document = parts.jsonBody else { return false }
            let text = document.value(at: condition.pointer).map { value -> String in
                if case .string(let string) = value { return string }
                return value.canonicalText
            }
            guard Self.holds(condition.condition, regex: bodyRegexes[offset], for: text) else { return false }
        }
        return true
    }

    /// Every query condition holds for the request's decoded query parameters.
    private func queryHolds(in values: [String: [String]]) -> Bool {
        for (offset, condition) in rule.query.enumerated() {
            let found = values[condition.name] ?? []
            let holds: Bool
            switch condition.condition.storage {
            case .absent: holds = found.isEmpty
            case .present: holds = !found.isEmpty
            default: holds = found.contains { Self.holds(condition.condition, regex: queryRegexes[offset], for: $0) }
            }
            if !holds { return false }
        }
        return true
    }

    private static func holds(_ condition: TextCondition, regex: Regex<AnyRegexOutput>?, for value: String?) -> Bool {
        switch condition.storage {
        case .present: return value != nil
        case .absent: return value == nil
        case .equals(let expected): return value.map { $0.utf8.elementsEqual(expected.utf8) } ?? false
        case .contains(let part): return value.map { ByteSearch.contains(Array(part.utf8), in: $0) } ?? false
        case .matches: return value.map { text in regex.map { text.contains($0) } ?? false } ?? false
        }
    }
}
