/// A rule with its patterns compiled and its prefilter facts worked out, once, at load time.
///
/// A class: matching walks thousands of these per request in a pattern-heavy set, and a struct of this
/// many arrays and strings was copied (a retain and release for each) every time a list was read.
/// Immutable (`let` properties of `Sendable` types only), so sharing it across threads is safe.
final class CompiledRule: Sendable {
    let rule: Rule
    /// Position in the declared list.
    let declaredIndex: Int
    let pattern: LinearPattern
    let uppercasedMethod: String?
    /// Literal text every match contains, beyond the prefix; empty when none is known.
    let requiredLiteral: [UInt8]
    /// Every run of literal text every match contains (``RequiredLiteral/runs(of:)``), for ``RuleShard``.
    let literalRuns: [LiteralRun]
    let queryConditions: [CompiledTextCondition]
    let headerConditions: [CompiledTextCondition]
    let cookieConditions: [CompiledTextCondition]
    let bodyConditions: [CompiledTextCondition]
    let pathParameterConditions: [CompiledTextCondition]
    let formParameterConditions: [CompiledTextCondition]
    /// Per multipart condition, its header and body conditions compiled.
    let multipartConditions: [(headers: [CompiledTextCondition], body: [CompiledTextCondition])]
    /// The most any of the rule's patterns can cost per scalar (``LinearPattern/worstVisitsPerScalar``).
    let worstVisitsPerScalar: Int

    /// Compiles `rule`'s patterns, sharing tables with the patterns `cache` compiled before.
    init(_ rule: Rule, declaredIndex: Int, cache: inout PatternCache) throws(RuleError) {
        func compile(_ pattern: String) throws(RuleError) -> LinearPattern {
            try compileParsed(pattern).pattern
        }
        /// The pattern compiled, and its tree for the prefilters (parsed once).
        func compileParsed(_ pattern: String) throws(RuleError) -> (pattern: LinearPattern, syntax: PatternNode) {
            do {
                let syntax = try PatternParser.parse(pattern)
                return (try LinearPattern(parsed: syntax, source: pattern, cache: &cache), syntax)
            } catch {
                throw RuleError(ruleIndex: declaredIndex, ruleName: rule.name, pattern: pattern, message: error.message)
            }
        }
        func compileCondition(_ condition: TextCondition) throws(RuleError) -> CompiledTextCondition {
            try CompiledTextCondition(condition, compile: compile)
        }
        self.rule = rule
        self.declaredIndex = declaredIndex
        let (pattern, syntax) = try compileParsed(rule.pattern)
        self.pattern = pattern
        uppercasedMethod = rule.method?.asciiUppercased
        literalRuns = RequiredLiteral.runs(of: syntax)
        let longest = literalRuns.map(\.bytes).max { $0.count < $1.count } ?? []
        requiredLiteral = longest.count > pattern.prefix.count ? longest : []
        var queryConditions: [CompiledTextCondition] = []
        for condition in rule.query { queryConditions.append(try compileCondition(condition.condition)) }
        self.queryConditions = queryConditions
        var headerConditions: [CompiledTextCondition] = []
        for header in rule.headers { headerConditions.append(try compileCondition(header.condition)) }
        self.headerConditions = headerConditions
        var cookieConditions: [CompiledTextCondition] = []
        for cookie in rule.cookies { cookieConditions.append(try compileCondition(cookie.condition)) }
        self.cookieConditions = cookieConditions
        var bodyConditions: [CompiledTextCondition] = []
        for condition in rule.body { bodyConditions.append(try compileCondition(condition.condition)) }
        self.bodyConditions = bodyConditions
        var pathParameterConditions: [CompiledTextCondition] = []
        for parameter in rule.pathParameters { pathParameterConditions.append(try compileCondition(parameter.condition)) }
        self.pathParameterConditions = pathParameterConditions
        var formParameterConditions: [CompiledTextCondition] = []
        for parameter in rule.formParameters { formParameterConditions.append(try compileCondition(parameter.condition)) }
        self.formParameterConditions = formParameterConditions
        var multipartConditions: [(headers: [CompiledTextCondition], body: [CompiledTextCondition])] = []
        for condition in rule.multipart {
            var headers: [CompiledTextCondition] = []
            for header in condition.headers { headers.append(try compileCondition(header.condition)) }
            var body: [CompiledTextCondition] = []
            for part in condition.body { body.append(try compileCondition(part.condition)) }
            multipartConditions.append((headers, body))
        }
        self.multipartConditions = multipartConditions
        let multipartCompiled = multipartConditions.flatMap { $0.headers + $0.body }
        let conditionPatterns = (queryConditions + headerConditions + cookieConditions + bodyConditions + pathParameterConditions + formParameterConditions
            + multipartCompiled)
            .flatMap(\.patterns)
        worstVisitsPerScalar = ([pattern] + conditionPatterns).map(\.worstVisitsPerScalar).max() ?? 0
    }

    /// The text every match starts with (``LinearPattern/prefix``), where ``RuleBucket`` files the rule.
    var literalPrefix: String { String(decoding: pattern.prefix, as: UTF8.self) }

    /// Whether the rule takes requests of `method` (canonical, upper case): any, when it names none.
    func accepts(method: String) -> Bool {
        uppercasedMethod.map { $0 == method } ?? true
    }

    /// Whether `target` starts with the rule's literal prefix and contains its required literal: the
    /// byte comparisons that rule out most rules before their pattern runs.
    func hasLiterals(in target: String) -> Bool {
        if !pattern.prefix.isEmpty, !ByteSearch.hasPrefix(pattern.prefix, in: target) { return false }
        if !requiredLiteral.isEmpty, !ByteSearch.contains(requiredLiteral, in: target) { return false }
        return true
    }

    /// Whether the rule answers `request`, whose pattern target is `target`, for a request the rule
    /// ``accepts(method:)`` and a `target` known to pass ``hasLiterals(in:)`` (the cheaper tests, which
    /// ``LiveRules`` runs first).
    func matchesGivenLiterals(_ request: IncomingRequest, target: String, parts: inout LazyRequestParts) -> Bool {
        guard pattern.matches(givenPrefix: target) else { return false }
        if !rule.pathParameters.isEmpty, !unmetPathParameters(request).isEmpty { return false }
        if !rule.query.isEmpty, !queryHolds(in: parts.queryValues) { return false }
        if !rule.formParameters.isEmpty, !formHolds(in: parts.formValues) { return false }
        guard Self.headersHold(rule.headers, headerConditions, in: request.request.headers) else { return false }
        if !rule.cookies.isEmpty {
            let cookies = parts.cookies
            for (offset, cookie) in rule.cookies.enumerated() {
                let values = cookies.lazy.filter { $0.name.utf8.elementsEqual(cookie.name.utf8) }.map(\.value)
                guard cookieConditions[offset].holds(forAnyOf: values, missingSatisfiesOnlyAbsent: true) else { return false }
            }
        }
        for (offset, condition) in rule.body.enumerated() {
            guard Self.bodyHolds(
                condition, bodyConditions[offset], body: request.request.body,
                json: { parts.jsonBody }, verbatimJSON: { parts.verbatimJSONBody })
            else { return false }
        }
        if !rule.multipart.isEmpty {
            guard let multipartParts = parts.multipartParts else { return false }
            for offset in rule.multipart.indices where !multipartHolds(offset, in: multipartParts) { return false }
        }
        return true
    }

    /// Whether the rule's multipart condition `offset` holds for `parts`: one part passes it, or every
    /// part (and there is one) for `ALL`.
    func multipartHolds(_ offset: Int, in parts: [MultipartPart]) -> Bool {
        let condition = rule.multipart[offset]
        let compiled = multipartConditions[offset]
        let passes = { (part: MultipartPart) in Self.partPasses(part, condition, compiled) }
        return condition.matching == .all ? !parts.isEmpty && parts.allSatisfy(passes) : parts.contains(where: passes)
    }

    /// Every header condition holds for `headers`. A repeated header (`X-Thing: One`, `X-Thing: Two`)
    /// holds when any of its values does, as a repeated query parameter does; lazily, since a rule set may
    /// try many rules on one request, and most headers are sent once.
    static func headersHold(_ conditions: [HeaderCondition], _ compiled: [CompiledTextCondition], in headers: [HeaderField]) -> Bool {
        for (offset, header) in conditions.enumerated() {
            let values = headers.lazy.filter { $0.name.equalsIgnoringASCIICase(header.name) }.map(\.value.trimmingHTTPWhitespace)
            guard compiled[offset].holds(forAnyOf: values) else { return false }
        }
        return true
    }

    /// Whether `condition` holds for `body`, whose JSON readings (parsed, and with numbers as written)
    /// are asked for only when the condition needs them.
    static func bodyHolds(
        _ condition: BodyCondition, _ compiled: CompiledTextCondition, body: [UInt8],
        json: () -> JSONValue?, verbatimJSON: () -> JSONValue?
    ) -> Bool {
        switch condition.location.storage {
        case .wholeBody:
            return compiled.holds(forBody: body)
        case .pointer(let pointer):
            guard let document = json() else { return false }
            let text = document.value(at: pointer).map { value -> String in
                if case .string(let string) = value { return string }
                return value.canonicalText
            }
            return compiled.holds(for: text)
        case .jsonPath(let path):
            guard let document = verbatimJSON() else { return false }
            let values = path.matchedValues(in: document).lazy.map(JSONPath.matchText)
            return compiled.holds(forAnyOf: values, missingSatisfiesOnlyAbsent: true)
        }
    }

    /// Whether one part of a multipart body passes a multipart condition's header and body conditions.
    private static func partPasses(
        _ part: MultipartPart, _ condition: MultipartCondition, _ compiled: (headers: [CompiledTextCondition], body: [CompiledTextCondition])
    ) -> Bool {
        guard headersHold(condition.headers, compiled.headers, in: part.headers) else { return false }
        for (offset, bodyCondition) in condition.body.enumerated() {
            guard bodyHolds(
                bodyCondition, compiled.body[offset], body: part.body,
                json: { try? JSONValue(parsing: part.body) }, verbatimJSON: { try? JSONValue(parsingVerbatim: part.body) })
            else { return false }
        }
        return true
    }

    /// The offsets of the path parameter conditions that do not hold for the request's path (read with
    /// ``Rule/pathTemplate``; every one, when the path does not fit it), with the value each was
    /// tested on.
    func unmetPathParameters(_ request: IncomingRequest) -> [(offset: Int, value: String?)] {
        let path = request.canonical.url.path
        let values = rule.pathTemplate.flatMap { $0.parameters(in: path) }
        var unmet: [(offset: Int, value: String?)] = []
        for (offset, parameter) in rule.pathParameters.enumerated() {
            // A name given twice in the template has its last value, as WireMock keeps it.
            let value = values?.last { $0.name == parameter.name }?.value
            if values == nil || !pathParameterConditions[offset].holds(for: value) { unmet.append((offset, value)) }
        }
        return unmet
    }

    /// Every form parameter condition holds for the body's decoded form parameters.
    private func formHolds(in values: [String: [String]]) -> Bool {
        for (offset, condition) in rule.formParameters.enumerated() {
            if !formParameterConditions[offset].holds(forAnyOf: values[condition.name] ?? []) { return false }
        }
        return true
    }

    /// Every query condition holds for the request's decoded query parameters.
    private func queryHolds(in values: [String: [String]]) -> Bool {
        for (offset, condition) in rule.query.enumerated() {
            if !queryConditions[offset].holds(forAnyOf: values[condition.name] ?? []) { return false }
        }
        return true
    }
}
