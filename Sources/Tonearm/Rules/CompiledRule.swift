/// A rule with its patterns compiled and its prefilter facts worked out, once, at load time.
struct CompiledRule: Sendable {
    let rule: Rule
    /// Position in the declared list.
    let declaredIndex: Int
    let pattern: LinearPattern
    let uppercasedMethod: String?
    let literalPrefix: String
    /// Literal text every match contains, beyond the prefix; empty when none is known.
    let requiredLiteral: [UInt8]
    let queryPatterns: [LinearPattern?]
    let headerPatterns: [LinearPattern?]
    let bodyPatterns: [LinearPattern?]
    /// The most any of the rule's patterns can cost per scalar (``LinearPattern/worstVisitsPerScalar``).
    let worstVisitsPerScalar: Int

    init(_ rule: Rule, declaredIndex: Int) throws(RuleError) {
        func compile(_ pattern: String) throws(RuleError) -> LinearPattern {
            do {
                return try LinearPattern(pattern)
            } catch {
                throw RuleError(ruleIndex: declaredIndex, ruleName: rule.name, pattern: pattern, message: error.message)
            }
        }
        func compileCondition(_ condition: TextCondition) throws(RuleError) -> LinearPattern? {
            guard case .matches(let pattern) = condition.storage else { return nil }
            return try compile(pattern)
        }
        self.rule = rule
        self.declaredIndex = declaredIndex
        pattern = try compile(rule.pattern)
        uppercasedMethod = rule.method?.asciiUppercased
        literalPrefix = LiteralPrefix.of(pattern.syntax)
        let literal = RequiredLiteral.of(pattern.syntax)
        requiredLiteral = literal.utf8.count > literalPrefix.utf8.count ? Array(literal.utf8) : []
        var queryPatterns: [LinearPattern?] = []
        for condition in rule.query { queryPatterns.append(try compileCondition(condition.condition)) }
        self.queryPatterns = queryPatterns
        var headerPatterns: [LinearPattern?] = []
        for header in rule.headers { headerPatterns.append(try compileCondition(header.condition)) }
        self.headerPatterns = headerPatterns
        var bodyPatterns: [LinearPattern?] = []
        for condition in rule.body { bodyPatterns.append(try compileCondition(condition.condition)) }
        self.bodyPatterns = bodyPatterns
        worstVisitsPerScalar = ([pattern] + queryPatterns.compactMap { $0 } + headerPatterns.compactMap { $0 }
            + bodyPatterns.compactMap { $0 }).map(\.worstVisitsPerScalar).max() ?? 0
    }

    /// Whether the rule answers `request`, whose pattern target is `target`.
    func matches(_ request: IncomingRequest, target: String, parts: inout LazyRequestParts) -> Bool {
        if let uppercasedMethod, uppercasedMethod != request.canonical.method { return false }
        if !literalPrefix.isEmpty, !target.utf8.starts(with: literalPrefix.utf8) { return false }
        if !requiredLiteral.isEmpty, !ByteSearch.contains(requiredLiteral, in: target) { return false }
        guard pattern.matches(target) else { return false }
        if !rule.query.isEmpty, !queryHolds(in: parts.queryValues) { return false }
        for (offset, header) in rule.headers.enumerated() {
            // A repeated header (`X-Thing: One`, `X-Thing: Two`) holds when any of its values does, as a
            // repeated query parameter does.
            // Lazily: a rule set may try many rules on one request, and most headers are sent once.
            let values = request.request.headers.lazy.filter { $0.name.equalsIgnoringASCIICase(header.name) }.map(\.value.trimmingHTTPWhitespace)
            guard Self.anyValueHolds(header.condition, pattern: headerPatterns[offset], in: values) else { return false }
        }
        for (offset, condition) in rule.body.enumerated() {
            guard let document = parts.jsonBody else { return false }
            let text = document.value(at: condition.pointer).map { value -> String in
                if case .string(let string) = value { return string }
                return value.canonicalText
            }
            guard Self.holds(condition.condition, pattern: bodyPatterns[offset], for: text) else { return false }
        }
        return true
    }

    /// Every query condition holds for the request's decoded query parameters.
    private func queryHolds(in values: [String: [String]]) -> Bool {
        for (offset, condition) in rule.query.enumerated() {
            let found = values[condition.name] ?? []
            if !Self.anyValueHolds(condition.condition, pattern: queryPatterns[offset], in: found) { return false }
        }
        return true
    }

    /// A condition on a header or query parameter that may be sent several times: `absent` holds when
    /// none is sent, `present` when one is, any other condition when one of the values satisfies it.
    private static func anyValueHolds(_ condition: TextCondition, pattern: LinearPattern?, in values: some Sequence<String>) -> Bool {
        switch condition.storage {
        case .absent: !values.contains { _ in true }
        case .present: values.contains { _ in true }
        default: values.contains { holds(condition, pattern: pattern, for: $0) }
        }
    }

    private static func holds(_ condition: TextCondition, pattern: LinearPattern?, for value: String?) -> Bool {
        switch condition.storage {
        case .present: return value != nil
        case .absent: return value == nil
        case .equals(let expected): return value.map { $0.utf8.elementsEqual(expected.utf8) } ?? false
        case .contains(let part): return value.map { ByteSearch.contains(Array(part.utf8), in: $0) } ?? false
        case .matches: return value.map { text in pattern?.matches(text) ?? false } ?? false
        }
    }
}
