import Foundation
import Tonearm

/// Reads WireMock mappings one by one into tracks, rules and warnings.
struct WireMockMappingReader {
    let file: String?
    let bodyFiles: URL?
    private(set) var entries: [CassetteEntry] = []
    private(set) var rules: [Rule] = []
    private(set) var warnings: [ImportWarning] = []

    private static let knownMappingKeys: Set<String> = [
        "request", "response", "priority", "id", "uuid", "name", "scenarioName", "requiredScenarioState",
        "newScenarioState", "metadata", "persistent", "insertionIndex",
    ]
    private static let knownRequestKeys: Set<String> = [
        "method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "pathParameters", "queryParameters", "headers", "cookies",
        "basicAuthCredentials", "basicAuth", "bodyPatterns", "multipartPatterns", "formParameters", "clientIp",
    ]
    private static let knownResponseKeys: Set<String> = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName",
        "fixedDelayMilliseconds", "fault", "transformers", "transformerParameters",
    ]
    static let methodsWithoutBody: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"]

    init(file: String?, bodyFiles: URL?) {
        self.file = file
        self.bodyFiles = bodyFiles
    }

    mutating func read(_ mapping: DocumentCursor, index: Int) throws(CassetteError) {
        let request = try mapping.required("request", expected: "a request pattern")
        let responseCursor = try mapping.required("response", expected: "a response definition")
        warnUnknownKeys(mapping, known: Self.knownMappingKeys, what: "mapping")
        warnUnknownKeys(request, known: Self.knownRequestKeys, what: "request matcher")
        warnUnknownKeys(responseCursor, known: Self.knownResponseKeys, what: "response field")
        let name = try mappingName(mapping, index: index)
        let scenario = try scenarioStep(mapping)
        let outcome = try readOutcome(responseCursor)
        let delay = try responseCursor.member("fixedDelayMilliseconds")?.delay()
        let method = try request.optionalString("method").map { $0.uppercased() }.flatMap { $0 == "ANY" ? nil : $0 }

        if let method, let exact = try exactRequest(request, method: method) {
            entries.append(CassetteEntry(Track(request: exact, outcome: outcome, name: name, delay: delay, scenario: scenario)))
            return
        }
        let template = try request.optionalString("urlPathTemplate").map(PathTemplate.init)
        let pattern = try urlPattern(request, template: template)
        try checkCompiles(pattern.pattern, at: try request.firstMember("urlPattern", "urlPathPattern") ?? request)
        var headers = try headerConditions(request.member("headers"))
        // `basicAuth` is the name WireMock 2.35.1 also reads (and echoes as `basicAuthCredentials`).
        if let credentials = try request.firstMember("basicAuthCredentials", "basicAuth") { headers.append(try Self.basicAuthCondition(credentials)) }
        // WireMock 3's `clientIp`: a value matcher on the client's address, which the server supplies.
        if let clientIp = try request.member("clientIp"), let condition = try valueCondition(clientIp, what: "clientIp matcher") {
            headers.append(HeaderCondition(WireMockFormat.clientAddressField, condition))
        }
        var rule = Rule(
            name: name, method: method, pattern: pattern.pattern, target: pattern.target, query: pattern.query,
            headers: headers, cookies: try cookieConditions(request.member("cookies")),
            body: try bodyConditions(request.member("bodyPatterns")), priority: try mapping.optionalInt("priority"), outcome: outcome, delay: delay, scenario: scenario)
        rule.multipart = try multipartConditions(request.member("multipartPatterns"))
        if let template, !request.has("url"), !request.has("urlPath"), !request.has("urlPattern"), !request.has("urlPathPattern") {
            rule.pathTemplate = template
        }
        rule.pathParameters = try pathParameterConditions(request.member("pathParameters"), template: rule.pathTemplate)
        rule.formParameters = try formParameterConditions(request.member("formParameters"))
        rules.append(rule)
    }

    private func mappingName(_ mapping: DocumentCursor, index: Int) throws(CassetteError) -> String {
        if let name = try mapping.optionalString("name") { return name }
        if let id = try mapping.optionalString("id") { return id }
        return defaultName(index)
    }

    /// `all[3]` for the fourth mapping of `mappings/all.json`. The stem is cut from the path as text: a
    /// Foundation `URL` here (it resolves the working directory) cost more than the rest of reading a
    /// small mapping, and the admin API reads one per request.
    private func defaultName(_ index: Int) -> String {
        guard let file else { return "mapping[\(index)]" }
        let name = file.split(separator: "/").last ?? Substring(file)
        let stem = name.lastIndex(of: ".").map { $0 == name.startIndex ? name : name[..<$0] } ?? name
        return "\(stem)[\(index)]"
    }

    // MARK: Exact mappings

    /// The one request a mapping names exactly, or `nil` when it has to be a rule.
    private mutating func exactRequest(_ request: DocumentCursor, method: String) throws(CassetteError) -> Request? {
        guard let url = try request.optionalString("url"), !request.has("headers"), !request.has("queryParameters"),
            Set(try request.members().map(\.key)).isSubset(of: ["method", "url", "bodyPatterns"])
        else { return nil }
        guard let patterns = try request.member("bodyPatterns") else {
            return Self.methodsWithoutBody.contains(method) ? Request(method: method, url: url) : nil
        }
        let list = try patterns.elements()
        guard list.count == 1, let only = list.first, try only.members().count == 1 else { return nil }
        if let json = try only.member("equalToJson") {
            let body: [UInt8] = if case .string(let text) = json.node.value { Array(text.utf8) } else { JSONOutput(json.node).compact() }
            return Request(method: method, url: url, headers: [HeaderField("Content-Type", "application/json")], body: body)
        }
        if let text = try only.member("equalTo") {
            return Request(method: method, url: url, body: try text.string())
        }
        return nil
    }

    // MARK: Rules

    private mutating func urlPattern(_ request: DocumentCursor, template: PathTemplate?) throws(CassetteError) -> WireMockRequestPattern {
        var query: [QueryCondition] = []
        for (name, matcher) in try request.member("queryParameters")?.members() ?? [] {
            guard let condition = try valueCondition(matcher, what: "query matcher", multiValue: true) else { continue }
            query.append(QueryCondition(name, condition))
        }
        return WireMockRequestPattern.make(
            url: try request.optionalString("url"), urlPath: try request.optionalString("urlPath"),
            urlPattern: try request.optionalString("urlPattern"), urlPathPattern: try request.optionalString("urlPathPattern"),
            urlPathTemplate: template, query: query)
    }

    private mutating func headerConditions(_ cursor: DocumentCursor?) throws(CassetteError) -> [HeaderCondition] {
        var conditions: [HeaderCondition] = []
        for (name, matcher) in try cursor?.members() ?? [] {
            guard let condition = try valueCondition(matcher, what: "header matcher", multiValue: true) else { continue }
            conditions.append(HeaderCondition(name, condition))
        }
        return conditions
    }

    /// `formParameters` (WireMock 3): a value matcher per parameter of an
    /// `application/x-www-form-urlencoded` body, read as `queryParameters` are (`hasExactly` and
    /// `includes` included).
    private mutating func formParameterConditions(_ cursor: DocumentCursor?) throws(CassetteError) -> [FormParameterCondition] {
        var conditions: [FormParameterCondition] = []
        for (name, matcher) in try cursor?.members() ?? [] {
            guard let condition = try valueCondition(matcher, what: "form parameter matcher", multiValue: true) else { continue }
            conditions.append(FormParameterCondition(name, condition))
        }
        return conditions
    }

    /// `pathParameters` (WireMock 3): a value matcher per parameter of the `urlPathTemplate`. Refused
    /// without a template (WireMock's Java DSL refuses it; its JSON reader would ignore the matchers)
    /// and for a name the template does not have (WireMock would test a missing value, so the mapping
    /// could never match): both are mistakes a test would not see otherwise.
    private mutating func pathParameterConditions(_ cursor: DocumentCursor?, template: PathTemplate?) throws(CassetteError) -> [PathParameterCondition] {
        guard let cursor else { return [] }
        guard let template else {
            throw cursor.error(expected: "pathParameters beside a urlPathTemplate (and no other URL matcher)", found: "pathParameters without one")
        }
        let names = template.parameterNames
        var conditions: [PathParameterCondition] = []
        for (name, matcher) in try cursor.members() {
            guard names.contains(name) else {
                let known = names.isEmpty ? "none" : names.map(\.debugDescription).joined(separator: ", ")
                throw matcher.error(expected: "a parameter of the urlPathTemplate \(template.text.debugDescription) (\(known))", found: name.debugDescription)
            }
            guard let condition = try valueCondition(matcher, what: "path parameter matcher") else { continue }
            conditions.append(PathParameterCondition(name, condition))
        }
        return conditions
    }

    private mutating func cookieConditions(_ cursor: DocumentCursor?) throws(CassetteError) -> [CookieCondition] {
        var conditions: [CookieCondition] = []
        for (name, matcher) in try cursor?.members() ?? [] {
            guard let condition = try valueCondition(matcher, what: "cookie matcher") else { continue }
            conditions.append(CookieCondition(name, condition))
        }
        return conditions
    }

    /// `basicAuthCredentials` as WireMock 2.35.1 checks it: an `Authorization` header equal, ignoring
    /// case (the base64 too, as the jar does), to `Basic ` and the base64 of `username:password` (UTF-8).
    private static func basicAuthCondition(_ credentials: DocumentCursor) throws(CassetteError) -> HeaderCondition {
        let username = try credentials.required("username", expected: "a user name").string()
        let password = try credentials.required("password", expected: "a password").string()
        let token = Base64.encode(Array("\(username):\(password)".utf8))
        return HeaderCondition("Authorization", .equalsIgnoringCase("Basic \(token)"))
    }

    /// `multipartPatterns`: each with `matchingType` `ANY` (the default) or `ALL`, and the part's
    /// `headers` and `bodyPatterns`, read as a request's are. A `name` is read and not matched on, as
    /// WireMock 2.35.1 does: its Java DSL writes it beside the `Content-Disposition` matcher that does
    /// the matching.
    private mutating func multipartConditions(_ cursor: DocumentCursor?) throws(CassetteError) -> [MultipartCondition] {
        var conditions: [MultipartCondition] = []
        for pattern in try cursor?.elements() ?? [] {
            warnUnknownKeys(pattern, known: ["matchingType", "headers", "bodyPatterns", "name"], what: "multipart matcher")
            _ = try pattern.optionalString("name")
            let matching: MultipartCondition.Matching
            switch try pattern.optionalString("matchingType")?.uppercased() {
            case nil, "ANY": matching = .any
            case "ALL": matching = .all
            case let other?:
                throw (try pattern.member("matchingType") ?? pattern).error(expected: "matchingType ANY or ALL", found: "\"\(other)\"")
            }
            conditions.append(MultipartCondition(
                matching, headers: try headerConditions(pattern.member("headers")), body: try bodyConditions(pattern.member("bodyPatterns"))))
        }
        return conditions
    }

    private mutating func bodyConditions(_ cursor: DocumentCursor?) throws(CassetteError) -> [BodyCondition] {
        var conditions: [BodyCondition] = []
        for pattern in try cursor?.elements() ?? [] {
            if let json = try pattern.member("equalToJson"), try pattern.optionalString("source") == "file" {
                // WireMock 3 reads the expected JSON from a file in `__files` when the pattern says so.
                let fileName = try json.string()
                guard let bytes = try Self.readBodyFile(named: fileName, at: json, in: bodyFiles, folderName: "__files") else {
                    warn(json, "equalToJson file \"\(fileName)\" was not found in \(bodyFiles?.path ?? "a __files folder"); the body is not checked")
                    continue
                }
                do {
                    conditions.append(BodyCondition(.wholeBody, .equalsJSON(try JSONValue(parsingVerbatim: bytes))))
                } catch {
                    throw json.error(expected: "JSON in the equalToJson file \"\(fileName)\"", found: "\(error)")
                }
            } else if let path = try pattern.member("matchesJsonPath") {
                guard let condition = try jsonPathCondition(path) else { continue }
                conditions.append(condition)
            } else if let condition = try valueCondition(pattern, what: "body matcher") {
                conditions.append(BodyCondition(.wholeBody, condition))
            }
        }
        return conditions
    }

    /// `equalToJson` as a condition on the whole document (pointer ""), compared by RFC 8785 text.
    static func wholeBodyCondition(_ json: DocumentCursor) throws(CassetteError) -> BodyCondition {
        let bytes: [UInt8] = if case .string(let text) = json.node.value { Array(text.utf8) } else { JSONOutput(json.node).compact() }
        let root: JSONPointer
        do { root = try JSONPointer("") } catch { throw json.error(expected: "a JSON Pointer", found: "\(error)") }
        do {
            let value = try JSONValue(parsing: bytes)
            return BodyCondition(root, .equals(value.canonicalText))
        } catch {
            throw json.error(expected: "JSON in equalToJson", found: "\(error)")
        }
    }

    private func checkCompiles(_ pattern: String, at cursor: DocumentCursor) throws(CassetteError) {
        // The check RuleSet makes, so a pattern it would refuse is refused here, with its place.
        do {
            try LinearPattern.check(pattern)
        } catch {
            throw cursor.error(expected: "a usable regular expression", found: "\(pattern.debugDescription) (\(error.message))")
        }
    }

    // MARK: Responses

    private mutating func readOutcome(_ response: DocumentCursor) throws(CassetteError) -> Track.Outcome {
        if let fault = try response.optionalString("fault") { return .transportError(Self.transportError(forFault: fault)) }
        if let transformers = try response.member("transformers") {
            warn(transformers, "response transformers (templating) are not applied; the body is replayed as written")
        }
        let status = try response.member("status")?.statusCode() ?? 200
        let headers = try response.member("headers")?.headerFields() ?? []
        return .response(Response(status: status, headers: headers, body: try readBody(response)))
    }

    private mutating func readBody(_ response: DocumentCursor) throws(CassetteError) -> [UInt8] {
        if let body = try response.optionalString("body") { return Array(body.utf8) }
        if let json = try response.member("jsonBody") { return JSONOutput(json.node).compact() }
        if let base64 = try response.member("base64Body") {
            guard let bytes = Base64.decode(try base64.string(), ignoringWhitespace: true) else {
                throw base64.error(expected: "base64 text", found: "text that is not base64")
            }
            return bytes
        }
        guard let fileCursor = try response.member("bodyFileName") else { return [] }
        let fileName = try fileCursor.string()
        guard let bytes = try Self.readBodyFile(named: fileName, at: fileCursor, in: bodyFiles, folderName: "__files") else {
            warn(response, "bodyFileName \"\(fileName)\" was not found in \(bodyFiles?.path ?? "a __files folder"); the body is left empty")
            return []
        }
        return bytes
    }

    /// The bytes of the body file `fileName` (read at `fileCursor`) inside `folder`, or `nil` when
    /// there is no folder or no such file. A mapping (possibly posted to a server's admin API) must not
    /// serve whatever the process can read: an absolute path, `..`, or a symbolic link leading out is
    /// an error.
    static func readBodyFile(
        named fileName: String, at fileCursor: DocumentCursor, in folder: URL?, folderName: String
    ) throws(CassetteError) -> [UInt8]? {
        guard !fileName.hasPrefix("/"), !fileName.hasPrefix("~"), !fileName.split(separator: "/").contains("..") else {
            throw fileCursor.error(expected: "a file name inside the \(folderName) folder", found: fileName.debugDescription)
        }
        guard let folder else { return nil }
        let file: URL
        do throws(FolderConfinement.Escape) {
            file = try FolderConfinement(root: folder).resolve(fileName)
        } catch {
            throw fileCursor.error(expected: "a file inside the \(folderName) folder \(folder.path)", found: error.description)
        }
        return FileManager.default.contents(atPath: file.path).map(Array.init)
    }

    static func transportError(forFault fault: String) -> TransportError {
        switch fault {
        case "EMPTY_RESPONSE": .networkConnectionLost
        case "CONNECTION_RESET_BY_PEER": .connectionReset
        case "MALFORMED_RESPONSE_CHUNK": .badServerResponse
        case "RANDOM_DATA_THEN_CLOSE": .cannotParseResponse
        default: .other(code: 0, message: fault)
        }
    }

    // MARK: Scenarios and warnings

    /// `scenarioName`, `requiredScenarioState` and `newScenarioState`, which the engine enforces. States
    /// without a scenario name mean nothing to WireMock either: they are reported and dropped.
    private mutating func scenarioStep(_ mapping: DocumentCursor) throws(CassetteError) -> ScenarioStep? {
        let required = try mapping.optionalString("requiredScenarioState")
        let next = try mapping.optionalString("newScenarioState")
        guard let name = try mapping.optionalString("scenarioName") else {
            if required != nil || next != nil {
                warn(mapping, "scenario states without a \"scenarioName\" belong to no scenario and were not imported")
            }
            return nil
        }
        return ScenarioStep(name, requiredState: required, newState: next)
    }

    private mutating func warnUnknownKeys(_ cursor: DocumentCursor, known: Set<String>, what: String) {
        guard let members = try? cursor.members() else { return }
        for (key, value) in members where !known.contains(key) {
            warn(value, "\(what) \"\(key)\" is not supported and was not imported")
        }
    }

    mutating func warn(_ cursor: DocumentCursor, _ message: String) {
        warnings.append(ImportWarning(file: file, path: cursor.path.description, message: message))
    }
}
