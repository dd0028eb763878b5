import Foundation
import Tonearm

/// Reads WireMock.Net mappings one by one into tracks, rules and warnings.
struct WireMockNetMappingReader {
    let file: String?
    let bodyFiles: URL?
    private(set) var entries: [CassetteEntry] = []
    private(set) var rules: [Rule] = []
    private(set) var warnings: [ImportWarning] = []

    /// Members read, or known to change nothing a replay answers (`Guid`, `Data`, `SaveToFile`…).
    private static let mappingFields = [
        "Guid", "UpdatedAt", "Title", "Description", "Priority", "Scenario", "WhenStateIs", "SetStateTo", "Request", "Response",
        "SaveToFile", "Data", "UseWebhooksFireAndForget",
    ]
    private static let requestFields = ["Path", "Url", "Methods", "MethodsRejectOnMatch", "MethodsMatchOperator", "Headers", "Params", "Body"]
    private static let responseFields = [
        "StatusCode", "Headers", "Body", "BodyAsJson", "BodyAsJsonIndented", "BodyAsBytes", "BodyAsFile", "BodyAsFileIsCached",
        "BodyEncoding", "BodyDestination", "UseTransformer", "TransformerType", "UseTransformerForBodyAsFile",
        "TransformerReplaceNodeOptions", "Delay", "Fault",
    ]
    /// WireMock.Net's scenarios have no state until a mapping sets one, and a mapping without
    /// `WhenStateIs` answers only then; Tonearm's scenarios start in this state.
    private static let startState = "Started"

    init(file: String?, bodyFiles: URL?) {
        self.file = file
        self.bodyFiles = bodyFiles
    }

    mutating func read(_ mapping: DocumentCursor, index: Int) throws(CassetteError) {
        let request = try mapping.required("Request", expected: "a WireMock.Net request object")
        let response = try mapping.required("Response", expected: "a WireMock.Net response object")
        warnings += try VCRFormat.unreadData(in: mapping, known: Self.mappingFields, file: file)
        warnings += try VCRFormat.unreadData(in: request, known: Self.requestFields, file: file)
        warnings += try VCRFormat.unreadData(in: response, known: Self.responseFields, file: file)
        let name = try mappingName(mapping, index: index)
        let outcome = try readOutcome(response)
        let delay = try response.member("Delay")?.delay()
        let scenario = try scenarioStep(mapping)
        let methods = try readMethods(request)
        if methods.count == 1, let method = methods.first, let exact = try exactRequest(request, method: method) {
            entries.append(CassetteEntry(Track(request: exact, outcome: outcome, name: name, delay: delay, scenario: scenario)))
            return
        }
        guard let (target, pattern) = try urlPattern(request) else { return }
        let query = try queryConditions(request)
        let headers = try headerConditions(request)
        let body = try bodyConditions(request)
        let priority = try rulePriority(mapping)
        // A rule answers one method (or any): a mapping naming several is one rule per method.
        let answered: [String?] = methods.isEmpty ? [nil] : methods
        for method in answered {
            rules.append(Rule(
                name: answered.count > 1 ? "\(name) (\(method ?? ""))" : name, method: method, pattern: pattern, target: target,
                query: query, headers: headers, body: body, priority: priority, outcome: outcome, delay: delay, scenario: scenario))
        }
    }

    private func mappingName(_ mapping: DocumentCursor, index: Int) throws(CassetteError) -> String {
        if let title = try mapping.optionalString("Title"), !title.isEmpty { return title }
        if let guid = try mapping.member("Guid") { return try guid.scalarText() }
        return "mapping \(index)"
    }

    /// WireMock.Net tries lower priorities first, from 0 by default; Tonearm's default is
    /// ``Rule/defaultPriority``, so priorities are moved by it and a mapping without one lands there.
    private func rulePriority(_ mapping: DocumentCursor) throws(CassetteError) -> Int? {
        guard let cursor = try mapping.member("Priority") else { return nil }
        let (priority, overflow) = try cursor.int().addingReportingOverflow(Rule.defaultPriority)
        guard !overflow else { throw cursor.error(expected: "a priority Tonearm can hold", found: try cursor.scalarText()) }
        return priority
    }

    private mutating func readMethods(_ request: DocumentCursor) throws(CassetteError) -> [String] {
        guard let list = try request.member("Methods") else { return [] }
        if try request.optionalFlag("MethodsRejectOnMatch") {
            warn(list, "methods matched by rejection are not supported; the mapping answers any method")
            return []
        }
        var methods: [String] = []
        for method in try list.elements() {
            let name = try method.string().uppercased()
            if !methods.contains(name) { methods.append(name) }
        }
        return methods
    }

    // MARK: Exact mappings

    /// The one request a mapping names exactly, or `nil` when it has to be a rule.
    private func exactRequest(_ request: DocumentCursor, method: String) throws(CassetteError) -> Request? {
        let used = Set(try request.members().filter { $0.value.carriesData }.map(\.key))
        guard used.isSubset(of: ["Path", "Methods", "MethodsMatchOperator", "Params", "Body"]),
            let pathField = try request.member("Path"), let path = try literal(pathField)
        else { return nil }
        var pairs: [(name: String, value: String)] = []
        for parameter in try request.member("Params")?.elements() ?? [] {
            guard try !parameter.optionalFlag("IgnoreCase"), try !parameter.optionalFlag("RejectOnMatch"),
                let matchers = try parameter.member("Matchers")?.elements(), matchers.count == 1, let only = matchers.first,
                let value = try WireMockNetMatcher(only).literal()
            else { return nil }
            pairs.append((try parameter.required("Name", expected: "the parameter's name").string(), value))
        }
        let url = path + (pairs.isEmpty ? "" : "?" + FormLiteral.encode(pairs))
        guard let body = try request.member("Body") else {
            return WireMockMappingReader.methodsWithoutBody.contains(method) ? Request(method: method, url: url) : nil
        }
        let matchers = try bodyMatchers(body)
        guard matchers.count == 1, let only = matchers.first, try !only.optionalFlag("Regex") else { return nil }
        let matcher = try WireMockNetMatcher(only)
        if matcher.name == "JsonMatcher", !matcher.ignoresCase, !matcher.rejectsOnMatch, matcher.patterns.count == 1, let pattern = matcher.patterns.first {
            let bytes: [UInt8] = pattern.isString ? Array(try pattern.string().utf8) : JSONOutput(pattern.node).compact()
            return Request(method: method, url: url, headers: [HeaderField("Content-Type", "application/json")], body: bytes)
        }
        guard matcher.name == "ExactMatcher", let text = try matcher.literal() else { return nil }
        return Request(method: method, url: url, body: text)
    }

    /// The one text a `Path` accepts: a wildcard-free string, or a single literal matcher.
    private func literal(_ field: DocumentCursor) throws(CassetteError) -> String? {
        if field.isString {
            let text = try field.string()
            return text.contains("*") || text.contains("?") ? nil : text
        }
        guard let matchers = try field.member("Matchers")?.elements(), matchers.count == 1, let only = matchers.first else { return nil }
        return try WireMockNetMatcher(only).literal()
    }

    // MARK: Rules

    /// `Path` over the request's path, else `Url` over its URL, else any path; `nil` (with a warning)
    /// when the matchers are not ones Tonearm runs: the mapping is then left out rather than answering
    /// every path.
    private mutating func urlPattern(_ request: DocumentCursor) throws(CassetteError) -> (Rule.Target, String)? {
        let (target, field): (Rule.Target, DocumentCursor?) =
            if let path = try request.member("Path") { (.path, path) } else { (.url, try request.member("Url")) }
        guard let field else { return (.path, "^.*$") }
        if field.isString { return (target, "^" + WireMockNetMatcher.wildcard(try field.string()) + "$") }
        let matchers = try field.member("Matchers")?.elements() ?? []
        guard !matchers.isEmpty else { return (target, "^.*$") }
        guard let regex = try combinedRegex(matchers, matchOperator: field.optionalString("MatchOperator"), at: field) else {
            warn(field, "the mapping was not imported: its \(target == .path ? "Path" : "Url") matchers are not ones Tonearm runs")
            return nil
        }
        return usable(regex, at: field, ignoredMeans: "the mapping was not imported") ? (target, regex) : nil
    }

    /// One regular expression for a list of string matchers (any of them, WireMock.Net's default
    /// operator), or `nil` with a warning.
    private mutating func combinedRegex(_ cursors: [DocumentCursor], matchOperator: String?, at field: DocumentCursor) throws(CassetteError) -> String? {
        if cursors.count > 1, let matchOperator, matchOperator.lowercased() != "or" {
            warn(field, "several matchers joined by \(matchOperator.debugDescription) are not supported (only any of them, \"Or\")")
            return nil
        }
        var alternatives: [String] = []
        for cursor in cursors {
            let matcher = try WireMockNetMatcher(cursor)
            guard let regex = try matcher.regex() else {
                warn(cursor, matcher.rejectsOnMatch ? "a matcher that rejects on match is not supported" : "the \(matcher.name) is not supported here")
                return nil
            }
            alternatives.append(regex)
        }
        return alternatives.count == 1 ? alternatives[0] : alternatives.map { "(?:\($0))" }.joined(separator: "|")
    }

    /// Whether the rule set will accept `regex` (the check ``LinearPattern`` makes); a warning when not.
    private mutating func usable(_ regex: String, at cursor: DocumentCursor, ignoredMeans: String) -> Bool {
        do throws(PatternProblem) {
            try LinearPattern.check(regex)
            return true
        } catch {
            warn(cursor, "the pattern \(regex.debugDescription) cannot run in linear time (\(error.message)); \(ignoredMeans)")
            return false
        }
    }

    /// The condition a header or parameter's matchers set, or `nil` (with a warning) when Tonearm
    /// cannot run them.
    private mutating func condition(_ owner: DocumentCursor, ignoredMeans: String) throws(CassetteError) -> TextCondition? {
        let cursors = try owner.member("Matchers")?.elements() ?? []
        if try owner.optionalFlag("RejectOnMatch") {
            warn(owner, "a matcher that rejects on match is not supported; \(ignoredMeans)")
            return nil
        }
        let condition: TextCondition?
        if cursors.count == 1, let only = cursors.first {
            condition = try WireMockNetMatcher(only).textCondition()
            if condition == nil { warn(only, "the \(try WireMockNetMatcher(only).name) is not supported here; \(ignoredMeans)") }
        } else {
            condition = try combinedRegex(cursors, matchOperator: owner.optionalString("MatchOperator"), at: owner).map(TextCondition.matches)
        }
        if let condition, condition.identifier == "matches", let regex = condition.operand, !usable(regex, at: owner, ignoredMeans: ignoredMeans) {
            return nil
        }
        return condition
    }

    private mutating func queryConditions(_ request: DocumentCursor) throws(CassetteError) -> [QueryCondition] {
        var conditions: [QueryCondition] = []
        for parameter in try request.member("Params")?.elements() ?? [] {
            let name = try parameter.required("Name", expected: "the parameter's name").string()
            if try parameter.optionalFlag("IgnoreCase") {
                warn(parameter, "a parameter name compared without case is not supported; \"\(name)\" is compared exactly")
            }
            guard try parameter.member("Matchers")?.carriesData == true else {
                conditions.append(QueryCondition(name, .present))
                continue
            }
            if let condition = try condition(parameter, ignoredMeans: "the parameter is not checked") {
                conditions.append(QueryCondition(name, condition))
            }
        }
        return conditions
    }

    /// Header matchers; header names are compared without case, as HTTP (and WireMock.Net) does.
    /// A header without matchers is not checked, as in WireMock.Net.
    private mutating func headerConditions(_ request: DocumentCursor) throws(CassetteError) -> [HeaderCondition] {
        var conditions: [HeaderCondition] = []
        for header in try request.member("Headers")?.elements() ?? [] where try header.member("Matchers")?.carriesData == true {
            let name = try header.required("Name", expected: "the header's name").string()
            if let condition = try condition(header, ignoredMeans: "the header is not checked") {
                conditions.append(HeaderCondition(name, condition))
            }
        }
        return conditions
    }

    private func bodyMatchers(_ body: DocumentCursor) throws(CassetteError) -> [DocumentCursor] {
        if let one = try body.member("Matcher") { return [one] }
        return try body.member("Matchers")?.elements() ?? []
    }

    /// `JsonMatcher` compares the whole body (RFC 8785 text); `JsonPartialMatcher` and
    /// `JsonPartialWildcardMatcher` each value the pattern names; a `JsonPathMatcher` path must
    /// select something; a `WildcardMatcher` of `*` takes any body. Anything else is a warning.
    private mutating func bodyConditions(_ request: DocumentCursor) throws(CassetteError) -> [BodyCondition] {
        guard let body = try request.member("Body") else { return [] }
        let cursors = try bodyMatchers(body)
        if cursors.count > 1, try body.optionalString("MatchOperator")?.lowercased() != "and" {
            warn(body, "any one of several body matchers is not supported (only all of them, \"And\"); the body is not checked")
            return []
        }
        var conditions: [BodyCondition] = []
        for cursor in cursors {
            let matcher = try WireMockNetMatcher(cursor)
            let unsupported = "the \(matcher.name) is not supported on rules; the body is not checked for it"
            guard !matcher.rejectsOnMatch, !matcher.patterns.isEmpty else {
                warn(cursor, matcher.rejectsOnMatch ? "a body matcher that rejects on match is not supported; the body is not checked for it" : unsupported)
                continue
            }
            let byPattern = try cursor.optionalFlag("Regex")
            if matcher.name.hasPrefix("JsonPartial") || matcher.name == "JsonMatcher", matcher.ignoresCase || byPattern {
                warn(cursor, "JSON values compared without case or by pattern are not supported; they are compared exactly")
            }
            let acceptsAnything = try matcher.regex() == "^.*$"
            switch matcher.name {
            case "JsonMatcher" where matcher.patterns.count == 1:
                conditions.append(try WireMockMappingReader.wholeBodyCondition(matcher.patterns[0]))
            case "JsonPartialMatcher", "JsonPartialWildcardMatcher":
                for pattern in matcher.patterns {
                    try partialConditions(
                        jsonTree(pattern), tokens: [], wildcards: matcher.name == "JsonPartialWildcardMatcher",
                        into: &conditions)
                }
            case "JsonPathMatcher":
                for pattern in matcher.patterns {
                    guard pattern.isString, let path = try? JSONPath(pattern.string()) else {
                        warn(pattern, "this JSONPath is not supported (see docs/server.md); the body is not checked for it")
                        continue
                    }
                    conditions.append(BodyCondition(.jsonPath(path), .present))
                }
            case "WildcardMatcher" where acceptsAnything:
                continue
            default:
                warn(cursor, unsupported)
            }
        }
        return conditions
    }

    /// A condition for each value the partial pattern names: objects are looked into, anything else
    /// (arrays included) must equal the request's value at the same place.
    private func partialConditions(_ pattern: DocumentCursor, tokens: [String], wildcards: Bool, into conditions: inout [BodyCondition]) throws(CassetteError) {
        switch pattern.node.value {
        case .object(let members) where !members.isEmpty:
            for (key, value) in try pattern.members() {
                try partialConditions(value, tokens: tokens + [key], wildcards: wildcards, into: &conditions)
            }
        case .string(let text):
            let glob = wildcards && (text.contains("*") || text.contains("?"))
            conditions.append(BodyCondition(JSONPointer(tokens: tokens), glob ? .matches("^" + WireMockNetMatcher.wildcard(text) + "$") : .equals(text)))
        default:
            do {
                let canonical = try JSONValue(parsing: JSONOutput(pattern.node).compact()).canonicalText
                conditions.append(BodyCondition(JSONPointer(tokens: tokens), .equals(canonical)))
            } catch {
                throw pattern.error(expected: "a JSON value in the partial pattern", found: "\(error)")
            }
        }
    }

    /// A pattern given as JSON text (`"Pattern": "{\"a\": 1}"`) as its parsed tree; any other
    /// pattern as it is.
    private func jsonTree(_ pattern: DocumentCursor) throws(CassetteError) -> DocumentCursor {
        guard pattern.isString else { return pattern }
        let source = DocumentSource(file: file, bytes: Array(try pattern.string().utf8))
        do {
            return DocumentCursor(root: try JSONDocumentParser.parse(source), source: source)
        } catch {
            throw pattern.error(expected: "JSON text in the pattern", found: "\(error)")
        }
    }

    // MARK: Scenarios and responses

    /// `Scenario`, `WhenStateIs` and `SetStateTo`; WireMock.Net ignores states without a scenario,
    /// which is said.
    private mutating func scenarioStep(_ mapping: DocumentCursor) throws(CassetteError) -> ScenarioStep? {
        let required = try mapping.optionalString("WhenStateIs").flatMap { $0.isEmpty ? nil : $0 }
        let next = try mapping.optionalString("SetStateTo").flatMap { $0.isEmpty ? nil : $0 }
        guard let name = try mapping.optionalString("Scenario") else {
            if required != nil || next != nil {
                warn(mapping, "scenario states without a \"Scenario\" belong to no scenario and were not imported")
            }
            return nil
        }
        return ScenarioStep(name, requiredState: required ?? Self.startState, newState: next)
    }

    private mutating func readOutcome(_ response: DocumentCursor) throws(CassetteError) -> Track.Outcome {
        if let fault = try response.member("Fault"), let type = try fault.optionalString("Type"), type != "NONE" {
            if let percentage = try fault.member("Percentage"), try percentage.double() < 1 {
                warn(percentage, "a fault applied to a share of the answers is not supported; it is applied to every answer")
            }
            return .transportError(WireMockMappingReader.transportError(forFault: type))
        }
        if let transformer = try response.member("UseTransformer"), try transformer.bool() {
            warn(transformer, "response templating is not applied; the response is replayed as written")
        }
        var status = 200
        if let statusCursor = try response.member("StatusCode") {
            if statusCursor.isString, Int(try statusCursor.string()) == nil {
                warn(statusCursor, "a status that is not a number (a template) is not applied; 200 is replayed")
            } else {
                status = try statusCursor.statusCode()
            }
        }
        let headers = try response.member("Headers")?.headerFields() ?? []
        return .response(Response(status: status, headers: headers, body: try readBody(response)))
    }

    private mutating func readBody(_ response: DocumentCursor) throws(CassetteError) -> [UInt8] {
        if let body = try response.member("Body") { return Array(try body.scalarText().utf8) }
        if let json = try response.member("BodyAsJson") { return JSONOutput(json.node).compact() }
        if let base64 = try response.member("BodyAsBytes") {
            guard let bytes = Base64.decode(try base64.string(), ignoringWhitespace: true) else {
                throw base64.error(expected: "base64 text (BodyAsBytes)", found: "text that is not base64")
            }
            return bytes
        }
        guard let fileCursor = try response.member("BodyAsFile") else { return [] }
        // .NET writes Windows separators; an absolute path names a file of the machine that recorded it.
        let fileName = try fileCursor.string().replacingOccurrences(of: "\\", with: "/")
        if fileName.hasPrefix("/") || fileName.dropFirst().hasPrefix(":/") {
            warn(fileCursor, "a body file outside the mappings folder (\(fileName.debugDescription)) is not read; the body is left empty")
            return []
        }
        guard let bytes = try WireMockMappingReader.readBodyFile(named: fileName, at: fileCursor, in: bodyFiles, folderName: "mappings") else {
            warn(fileCursor, "BodyAsFile \"\(fileName)\" was not found in \(bodyFiles?.path ?? "a mappings folder"); the body is left empty")
            return []
        }
        return bytes
    }

    mutating func warn(_ cursor: DocumentCursor, _ message: String) {
        warnings.append(ImportWarning(file: file, path: cursor.path.description, message: message))
    }
}
