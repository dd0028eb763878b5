import Foundation
import Tonearm

/// Hoverfly simulations, schema v5 (`v5`, `v5.1`…; what Hoverfly exports since v0.14):
/// `{data: {pairs: [{request, response}], globalActions}, meta: {schemaVersion}}`. Schemas v1 to v4
/// are rewritten into v5's shape first, as Hoverfly upgrades them (`HoverflySchemaUpgrade`).
///
/// A pair whose request is named exactly — every matcher `exact`, a method, scheme, destination and path,
/// no header matchers and no state — is the recording of one request and becomes a **track**. Any other
/// pair becomes a **rule**: `exact`, `glob` and `regex` matchers on scheme, destination and path make
/// one pattern over the URL, query matchers become query conditions, header matchers header conditions,
/// and a `json` body matcher a condition on the whole JSON body. Hoverfly's state is a set of keys; a
/// pair requiring or setting one key is that key's scenario step. Everything the engine cannot do
/// (other matcher types, templating, several state keys, `removesState`, global delays, body files) is
/// an import warning naming its path, never dropped silently.
public enum HoverflyFormat {
    /// Reads a Hoverfly simulation; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String? = nil) throws(CassetteError) -> CassetteImport {
        let source = DocumentSource(file: file, bytes: bytes)
        let root = DocumentCursor(root: try JSONDocumentParser.parse(source), source: source)
        let schema = try root.required("meta", expected: "Hoverfly's meta object").required("schemaVersion", expected: "a schema version")
        let version = try schema.string()
        // Hoverfly itself reads any `v5…` as v5 and upgrades older schemas, whose matchers have another shape.
        let upgrading = HoverflySchemaUpgrade.versions.contains(version)
        guard version.hasPrefix("v5") || upgrading else {
            throw schema.error(expected: "a Hoverfly simulation of schema v1, v2, v3, v4 or v5", found: version.debugDescription)
        }
        let data = try root.required("data", expected: "the simulation's data object")
        var reader = HoverflyPairReader(file: file)
        for (index, pair) in try data.required("pairs", expected: "an array of request/response pairs").elements().enumerated() {
            let current = upgrading ? try HoverflySchemaUpgrade.pair(pair, version: version, file: file, warnings: &reader.warnings) : pair
            try reader.read(current, index: index)
        }
        for (name, action) in try data.member("globalActions")?.members() ?? [] where action.carriesData {
            reader.warn(action, "global action \"\(name)\" is not applied")
        }
        return CassetteImport(cassette: Cassette(entries: reader.entries), rules: reader.rules, warnings: reader.warnings)
    }
}

/// Reads Hoverfly pairs one by one into tracks, rules and warnings.
struct HoverflyPairReader {
    let file: String?
    private(set) var entries: [CassetteEntry] = []
    private(set) var rules: [Rule] = []
    var warnings: [ImportWarning] = []

    private static let requestFields = [
        "method", "scheme", "destination", "path", "query", "headers", "body", "requiresState", "deprecatedQuery",
    ]
    private static let responseFields = [
        "status", "body", "encodedBody", "headers", "templated", "transitionsState", "removesState", "fixedDelay",
    ]

    init(file: String?) {
        self.file = file
    }

    mutating func read(_ pair: DocumentCursor, index: Int) throws(CassetteError) {
        let request = try pair.required("request", expected: "a request matcher object")
        let response = try pair.required("response", expected: "a response object")
        warnings += try VCRFormat.unreadData(in: request, known: Self.requestFields, file: file)
        warnings += try VCRFormat.unreadData(in: response, known: Self.responseFields, file: file)
        if try response.member("templated")?.bool() == true {
            warn(response, "templating is not applied; the body is replayed as written")
        }
        let name = "pair \(index)"
        let outcome = Track.Outcome.response(try readResponse(response))
        let delay = try response.member("fixedDelay")?.delay()
        let scenario = try scenarioStep(request: request, response: response)
        if scenario == nil, let exact = try exactRequest(request) {
            entries.append(CassetteEntry(Track(request: exact, outcome: outcome, name: name, delay: delay)))
            return
        }
        let pattern = "^" + (try urlPart(request, "scheme", within: "[^:/]")) + "://"
            + (try urlPart(request, "destination", within: "[^/]")) + (try urlPart(request, "path", within: "[^?]")) + "(?:\\?.*)?$"
        do {
            try LinearPattern.check(pattern)
        } catch {
            throw request.error(expected: "matchers Tonearm can run", found: "\(pattern.debugDescription) (\(error.message))")
        }
        // Hoverfly's strongest match counts a state that holds as one more matching field, so a pair
        // requiring state wins over an otherwise equal pair that does not: tried first here.
        let priority = scenario?.requiredState != nil ? Rule.defaultPriority - 1 : nil
        rules.append(Rule(
            name: name, method: try method(request), pattern: pattern, target: .url, query: try queryConditions(request),
            headers: try headerConditions(request), body: try bodyConditions(request), priority: priority, outcome: outcome,
            delay: delay, scenario: scenario))
    }

    // MARK: Exact pairs

    /// The one request a pair names with `exact` matchers, or `nil` when it has to be a rule.
    private func exactRequest(_ request: DocumentCursor) throws(CassetteError) -> Request? {
        guard try request.member("headers")?.carriesData != true,
            let method = try exactValue(request.member("method")),
            let destination = try exactValue(request.member("destination")),
            let path = try exactValue(request.member("path")),
            let scheme = try exactValue(request.member("scheme"))
        else { return nil }
        var query = ""
        if let queryCursor = try request.member("query"), queryCursor.carriesData {
            guard case .object = queryCursor.node.value else { return nil }
            var pairs: [(name: String, value: String)] = []
            for (key, matchers) in try queryCursor.members() {
                guard let value = try exactValue(matchers) else { return nil }
                pairs.append((key, value))
            }
            query = pairs.isEmpty ? "" : "?" + FormLiteral.encode(pairs)
        }
        var body: [UInt8] = []
        if let bodyCursor = try request.member("body"), bodyCursor.carriesData {
            guard let text = try exactValue(bodyCursor) else { return nil }
            body = Array(text.utf8)
        }
        return Request(method: method.uppercased(), url: scheme + "://" + destination + path + query, body: body)
    }

    /// The value of a field's matchers when they are a single `exact` one.
    private func exactValue(_ matchers: DocumentCursor?) throws(CassetteError) -> String? {
        guard let matchers, case .array = matchers.node.value else { return nil }
        let list = try matchers.elements()
        guard list.count == 1, let only = list.first, try only.optionalString("matcher")?.lowercased() == "exact",
            try only.member("doMatch") == nil
        else { return nil }
        return try only.required("value", expected: "the matcher's value").scalarText()
    }

    // MARK: Rules

    private mutating func method(_ request: DocumentCursor) throws(CassetteError) -> String? {
        guard let matchers = try request.member("method"), matchers.carriesData else { return nil }
        if let method = try exactValue(matchers) { return method.uppercased() }
        // Schema v1 templates match every field by glob, the method included: one without `*` is exact.
        if let list = try? matchers.elements(), list.count == 1, let only = list.first, try only.optionalString("matcher")?.lowercased() == "glob",
            let method = try only.member("value")?.scalarText(), !method.contains("*")
        {
            return method.uppercased()
        }
        warn(matchers, "only an exact method matcher is supported; the rule answers any method")
        return nil
    }

    /// One field of the URL pattern: `exact` as a literal, `glob` with `*` for any run of characters,
    /// `regex` as Hoverfly runs it, searched within the field (`within` is one character of it).
    private mutating func urlPart(_ request: DocumentCursor, _ field: String, within: String) throws(CassetteError) -> String {
        let any = within + "*"
        guard let matchers = try request.member(field), matchers.carriesData,
            let (kind, value) = try singleMatcher(matchers, ignoredMeans: "the field matches anything")
        else { return any }
        switch kind {
        case "exact": return WireMockRequestPattern.escape(value)
        case "glob": return Self.glob(value)
        default:
            var inner = Substring(value)
            let start = inner.hasPrefix("^") ? "" : any
            if inner.hasPrefix("^") { inner = inner.dropFirst() }
            let end = inner.hasSuffix("$") && !inner.hasSuffix("\\$") ? "" : any
            if end.isEmpty { inner = inner.dropLast() }
            return start + "(?:" + inner + ")" + end
        }
    }

    /// The kind (`exact`, `glob` or `regex`) and value of a field's matchers when they are one of
    /// those; otherwise a warning saying what ignoring them means, and `nil`.
    private mutating func singleMatcher(_ matchers: DocumentCursor, ignoredMeans: String) throws(CassetteError) -> (String, String)? {
        let list = try matchers.elements()
        guard list.count == 1, let only = list.first else {
            warn(matchers, "only one matcher per field is supported; \(ignoredMeans)")
            return nil
        }
        let kind = try only.optionalString("matcher")?.lowercased()
        guard let kind, ["exact", "glob", "regex"].contains(kind), try only.member("doMatch") == nil else {
            warn(only, "the \(kind ?? "unnamed") matcher is not supported; \(ignoredMeans)")
            return nil
        }
        return (kind, try only.required("value", expected: "the matcher's value").scalarText())
    }

    /// A Hoverfly glob as a regular expression: `*` is any run of characters, the rest literal.
    private static func glob(_ value: String) -> String {
        value.split(separator: "*", omittingEmptySubsequences: false).map { WireMockRequestPattern.escape(String($0)) }.joined(separator: ".*")
    }

    private mutating func textCondition(_ matchers: DocumentCursor) throws(CassetteError) -> TextCondition? {
        guard let (kind, value) = try singleMatcher(matchers, ignoredMeans: "the condition was not imported") else { return nil }
        switch kind {
        case "exact": return .equals(value)
        case "glob": return .matches("^" + Self.glob(value) + "$")
        default: return .matches(value)
        }
    }

    private mutating func queryConditions(_ request: DocumentCursor) throws(CassetteError) -> [QueryCondition] {
        guard let query = try request.member("query"), query.carriesData else { return [] }
        guard case .object = query.node.value else {
            warn(query, "a matcher over the whole query string is not supported; the query matches anything")
            return []
        }
        var conditions: [QueryCondition] = []
        for (name, matchers) in try query.members() {
            if let condition = try textCondition(matchers) { conditions.append(QueryCondition(name, condition)) }
        }
        return conditions
    }

    private mutating func headerConditions(_ request: DocumentCursor) throws(CassetteError) -> [HeaderCondition] {
        var conditions: [HeaderCondition] = []
        for (name, matchers) in try request.member("headers")?.members() ?? [] {
            if let condition = try textCondition(matchers) { conditions.append(HeaderCondition(name, condition)) }
        }
        return conditions
    }

    /// A `json` matcher compares the whole body by RFC 8785 text; an `exact` empty body (what Hoverfly
    /// captures for requests without one) needs no condition.
    private mutating func bodyConditions(_ request: DocumentCursor) throws(CassetteError) -> [BodyCondition] {
        guard let matchers = try request.member("body"), matchers.carriesData else { return [] }
        let list = try matchers.elements()
        if list.count == 1, let only = list.first {
            let kind = try only.optionalString("matcher")?.lowercased()
            let value = try only.required("value", expected: "the matcher's value")
            if kind == "exact", try value.scalarText().isEmpty { return [] }
            if kind == "json" {
                let bytes: [UInt8] = if case .string(let text) = value.node.value { Array(text.utf8) } else { JSONOutput(value.node).compact() }
                do {
                    return [BodyCondition(try JSONPointer(""), .equals(try JSONValue(parsing: bytes).canonicalText))]
                } catch {
                    throw value.error(expected: "JSON in the json matcher", found: "\(error)")
                }
            }
        }
        warn(matchers, "only a json body matcher is supported on rules; the body matches anything")
        return []
    }

    // MARK: State and responses

    /// `requiresState` and `transitionsState` on one key are that key's scenario step.
    private mutating func scenarioStep(request: DocumentCursor, response: DocumentCursor) throws(CassetteError) -> ScenarioStep? {
        let required = try request.member("requiresState")?.members() ?? []
        let transitions = try response.member("transitionsState")?.members() ?? []
        if let removes = try response.member("removesState"), removes.carriesData {
            warn(removes, "removing state is not supported and was not imported")
        }
        let keys = Set(required.map(\.key) + transitions.map(\.key))
        guard let key = keys.first else { return nil }
        guard keys.count == 1 else {
            warn(request, "state over several keys (\(keys.sorted().joined(separator: ", "))) is not supported and was not imported")
            return nil
        }
        return ScenarioStep(
            key, requiredState: try required.first?.value.scalarText(), newState: try transitions.first?.value.scalarText())
    }

    private func readResponse(_ response: DocumentCursor) throws(CassetteError) -> Response {
        let status = try response.member("status")?.statusCode() ?? 200
        var headers: [HeaderField] = []
        for (name, values) in try response.member("headers")?.members() ?? [] {
            for value in try values.elements() { headers.append(HeaderField(name, try value.scalarText())) }
        }
        guard let bodyCursor = try response.member("body") else { return Response(status: status, headers: headers) }
        let text = try bodyCursor.string()
        guard try response.member("encodedBody")?.bool() == true else { return Response(status: status, headers: headers, body: Array(text.utf8)) }
        guard let bytes = Base64.decode(text, ignoringWhitespace: true) else {
            throw bodyCursor.error(expected: "base64 text (encodedBody is true)", found: "text that is not base64")
        }
        return Response(status: status, headers: headers, body: bytes)
    }

    mutating func warn(_ cursor: DocumentCursor, _ message: String) {
        warnings.append(ImportWarning(file: file, path: cursor.path.description, message: message))
    }
}
