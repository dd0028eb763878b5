/// A ``TextCondition`` with its regular expressions compiled, once, at load time.
indirect enum CompiledTextCondition: Sendable {
    case equals([UInt8])
    case equalsIgnoringCase(String)
    case contains([UInt8])
    case doesNotContain([UInt8])
    case matches(LinearPattern)
    case doesNotMatch(LinearPattern)
    case equalsJSON(JSONValue, JSONComparison)
    case equalsBytes([UInt8])
    case before(DateTimeBound)
    case after(DateTimeBound)
    case equalsDateTime(DateTimeBound)
    case equalsXML(XMLExpectation)
    case matchesXPath(XPathExpression, CompiledTextCondition?)
    case present
    case absent
    case allOf([CompiledTextCondition])
    case anyOf([CompiledTextCondition])
    case not(CompiledTextCondition)
    /// `includes` (`exactCount` false) or `hasExactly`: one case, so a condition on a repeated value
    /// tells it apart with one comparison.
    case multiValue([CompiledTextCondition], exactCount: Bool)
    case matchesJSONSchema(JSONSchema, [LinearPattern])

    init(_ condition: TextCondition, compile: (String) throws(RuleError) -> LinearPattern) throws(RuleError) {
        switch condition.storage {
        case .equals(let text): self = .equals(Array(text.utf8))
        case .equalsIgnoringCase(let text): self = .equalsIgnoringCase(text.lowercased())
        case .contains(let text): self = .contains(Array(text.utf8))
        case .doesNotContain(let text): self = .doesNotContain(Array(text.utf8))
        case .matches(let pattern): self = .matches(try compile(pattern))
        case .doesNotMatch(let pattern): self = .doesNotMatch(try compile(pattern))
        case .equalsJSON(let json, let comparison): self = .equalsJSON(json, comparison)
        case .equalsBytes(let bytes): self = .equalsBytes(bytes)
        case .before(let bound): self = .before(bound)
        case .after(let bound): self = .after(bound)
        case .equalsDateTime(let bound): self = .equalsDateTime(bound)
        case .equalsXML(let document, let comparison): self = .equalsXML(try XMLExpectation(document, comparison, compile: compile))
        case .matchesXPath(let expression, let nested):
            self = .matchesXPath(expression, try nested.map { (nested) throws(RuleError) in try CompiledTextCondition(nested, compile: compile) })
        case .present: self = .present
        case .absent: self = .absent
        case .allOf(let members):
            var compiled: [CompiledTextCondition] = []
            for member in members { compiled.append(try CompiledTextCondition(member, compile: compile)) }
            self = .allOf(compiled)
        case .anyOf(let members):
            var compiled: [CompiledTextCondition] = []
            for member in members { compiled.append(try CompiledTextCondition(member, compile: compile)) }
            self = .anyOf(compiled)
        case .not(let negated): self = .not(try CompiledTextCondition(negated, compile: compile))
        case .matchesJSONSchema(let schema):
            var patterns: [LinearPattern] = []
            for pattern in schema.patterns { patterns.append(try compile(pattern)) }
            self = .matchesJSONSchema(schema, patterns)
        case .includes(let members), .hasExactly(let members):
            var compiled: [CompiledTextCondition] = []
            for member in members { compiled.append(try CompiledTextCondition(member, compile: compile)) }
            if case .hasExactly = condition.storage { self = .multiValue(compiled, exactCount: true) } else { self = .multiValue(compiled, exactCount: false) }
        }
    }

    /// Every compiled pattern in the condition, for the rule's worst-case cost.
    var patterns: [LinearPattern] {
        switch self {
        case .matches(let pattern), .doesNotMatch(let pattern): [pattern]
        case .matchesXPath(_, let nested?), .not(let nested): nested.patterns
        case .allOf(let members), .anyOf(let members), .multiValue(let members, _): members.flatMap(\.patterns)
        case .matchesJSONSchema(_, let patterns): patterns
        default: []
        }
    }

    /// Whether the condition is exactly `absent` (what a missing cookie or JSONPath value satisfies).
    var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// Whether the condition holds for `value`, `nil` when the value is missing.
    func holds(for value: String?) -> Bool {
        switch self {
        case .present: return value != nil
        case .absent: return value == nil
        case .doesNotMatch(let pattern): return value.map { !pattern.matches($0) } ?? true
        case .doesNotContain(let part): return value.map { !ByteSearch.contains(part, in: $0) } ?? true
        case .allOf(let members): return members.allSatisfy { $0.holds(for: value) }
        case .anyOf(let members): return members.contains { $0.holds(for: value) }
        case .not(let negated): return !negated.holds(for: value)
        case .multiValue(let members, let exactCount): return Self.holds(members, exactCount: exactCount, for: value.map { [$0] } ?? [])
        default:
            guard let value else { return false }
            return holds(forPresent: value)
        }
    }

    /// Whether the condition holds for a body (missing when empty), comparing bytes where it can.
    func holds(forBody body: [UInt8]) -> Bool {
        switch self {
        case .equalsBytes(let expected): return !body.isEmpty && body == expected
        case .equalsXML, .matchesXPath: return body.isEmpty ? false : holds(forXML: body)
        case .allOf(let members): return members.allSatisfy { $0.holds(forBody: body) }
        case .anyOf(let members): return members.contains { $0.holds(forBody: body) }
        case .not(let negated): return !negated.holds(forBody: body)
        default: return holds(for: body.isEmpty ? nil : String(decoding: body, as: UTF8.self))
        }
    }

    /// A condition on a value that may be sent several times (header, query parameter, cookie): with
    /// none, the condition is tested on the missing value (or, when `missingSatisfiesOnlyAbsent`, holds
    /// only if it is `absent`); otherwise it holds when it holds for one of them.
    func holds(forAnyOf values: some Sequence<String>, missingSatisfiesOnlyAbsent: Bool = false) -> Bool {
        if case .multiValue(let members, let exactCount) = self { return Self.holds(members, exactCount: exactCount, for: Array(values)) }
        var sawValue = false
        for value in values {
            sawValue = true
            if holds(for: value) { return true }
        }
        if sawValue { return false }
        return missingSatisfiesOnlyAbsent ? isAbsent : holds(for: nil)
    }

    /// `includes` and `hasExactly` on all of a value's `values`: some, each member holding for one of
    /// them, and with `exactCount` as many as there are members.
    private static func holds(_ members: [CompiledTextCondition], exactCount: Bool, for values: [String]) -> Bool {
        guard !values.isEmpty, !exactCount || values.count == members.count else { return false }
        return members.allSatisfy { member in values.contains { member.holds(for: $0) } }
    }

    private func holds(forPresent value: String) -> Bool {
        switch self {
        case .equals(let expected): return value.utf8.elementsEqual(expected)
        case .equalsIgnoringCase(let expected): return value.lowercased().unicodeScalars.elementsEqual(expected.unicodeScalars)
        case .contains(let part): return ByteSearch.contains(part, in: value)
        case .matches(let pattern): return pattern.matches(value)
        case .matchesJSONSchema(let schema, let patterns): return schema.validates(text: value, patterns: patterns)
        case .equalsJSON(let expected, let comparison):
            guard let actual = try? JSONValue(parsingVerbatim: Array(value.utf8)) else { return false }
            return comparison.matches(actual, expected: expected)
        case .equalsBytes(let expected): return value.utf8.elementsEqual(expected)
        case .before(let bound): return bound.order(ofText: value).map { $0 < 0 } ?? false
        case .after(let bound): return bound.order(ofText: value).map { $0 > 0 } ?? false
        case .equalsDateTime(let bound): return bound.order(ofText: value).map { $0 == 0 } ?? false
        case .equalsXML, .matchesXPath: return holds(forXML: Array(value.utf8))
        case .present, .absent, .doesNotMatch, .doesNotContain, .allOf, .anyOf, .not, .multiValue: return holds(for: value)
        }
    }

    /// An XML condition on a value read as XML; a value that is not XML (or has a DTD) satisfies none.
    private func holds(forXML bytes: [UInt8]) -> Bool {
        guard let document = try? XMLReader().read(bytes) else { return false }
        switch self {
        case .equalsXML(let expectation):
            return expectation.matches(document)
        case .matchesXPath(let expression, let nested):
            let values = expression.selectedValues(in: document)
            guard let nested else { return !values.isEmpty }
            return values.contains { nested.holds(for: $0) }
        default:
            return false
        }
    }
}
