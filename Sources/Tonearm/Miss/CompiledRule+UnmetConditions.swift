/// What a miss report says about a rule: every condition the request does not meet, where matching
/// stops at the first.
extension CompiledRule {
    /// How much of a body an unmet body condition quotes.
    static let quotedBodyLimit = 120

    /// The rule's conditions `request` does not meet, in the order the rule declares them; empty when
    /// every one holds. `target` is the request's text the pattern is matched against.
    func unmetConditions(_ request: IncomingRequest, target: String, parts: inout LazyRequestParts) -> [FieldDifference] {
        var unmet: [FieldDifference] = []
        if let uppercasedMethod, uppercasedMethod != request.canonical.method {
            unmet.append(.unmetCondition("method", condition: uppercasedMethod, received: [request.canonical.method]))
        }
        // The literal prefix and required literal only spare the pattern's run; the pattern decides.
        if !pattern.matches(target) {
            unmet.append(.unmetCondition(
                rule.target.rawValue, condition: "matches \(rule.pattern.debugDescription)", received: [target]))
        }
        for (offset, value) in rule.pathParameters.isEmpty ? [] : unmetPathParameters(request) {
            let parameter = rule.pathParameters[offset]
            unmet.append(.unmetCondition(
                "path parameter", name: parameter.name, condition: parameter.condition.description, received: value.map { [$0] } ?? []))
        }
        if !rule.query.isEmpty {
            let values = parts.queryValues
            for (offset, condition) in rule.query.enumerated() {
                let received = values[condition.name] ?? []
                if !queryConditions[offset].holds(forAnyOf: received) {
                    unmet.append(.unmetCondition(
                        "query parameter", name: condition.name, condition: condition.condition.description, received: received))
                }
            }
        }
        if !rule.formParameters.isEmpty {
            let values = parts.formValues
            for (offset, condition) in rule.formParameters.enumerated() {
                let received = values[condition.name] ?? []
                if !formParameterConditions[offset].holds(forAnyOf: received) {
                    unmet.append(.unmetCondition(
                        "form parameter", name: condition.name, condition: condition.condition.description, received: received))
                }
            }
        }
        for (offset, header) in rule.headers.enumerated()
        where !Self.headersHold([header], [headerConditions[offset]], in: request.request.headers) {
            let received = request.request.headers.values(named: header.name).map(\.trimmingHTTPWhitespace)
            unmet.append(.unmetCondition("header", name: header.name, condition: header.condition.description, received: received))
        }
        if !rule.cookies.isEmpty {
            let cookies = parts.cookies
            for (offset, cookie) in rule.cookies.enumerated() {
                let received = cookies.filter { $0.name.utf8.elementsEqual(cookie.name.utf8) }.map(\.value)
                if !cookieConditions[offset].holds(forAnyOf: received, missingSatisfiesOnlyAbsent: true) {
                    unmet.append(.unmetCondition("cookie", name: cookie.name, condition: cookie.condition.description, received: received))
                }
            }
        }
        for (offset, condition) in rule.body.enumerated() {
            let holds = Self.bodyHolds(
                condition, bodyConditions[offset], body: request.request.body,
                json: { parts.jsonBody }, verbatimJSON: { parts.verbatimJSONBody })
            guard !holds else { continue }
            unmet.append(.unmetCondition(
                "body", name: Self.name(of: condition.location), condition: condition.condition.description,
                received: Self.received(at: condition.location, body: request.request.body, parts: &parts)))
        }
        if !rule.multipart.isEmpty {
            let multipartParts = parts.multipartParts ?? []
            for (offset, condition) in rule.multipart.enumerated() where !multipartHolds(offset, in: multipartParts) {
                let asked = "\(condition.matching == .all ? "every" : "a") part passing \(condition.headers.count) header and \(condition.body.count) body condition\(condition.body.count == 1 ? "" : "s")"
                unmet.append(.unmetCondition(
                    "multipart", name: "condition \(offset + 1)", condition: asked,
                    received: ["\(multipartParts.count) part\(multipartParts.count == 1 ? "" : "s")"]))
            }
        }
        return unmet
    }

    /// Where in the body a condition looks: a JSON Pointer or JSONPath, `nil` for the whole body.
    private static func name(of location: BodyLocation) -> String? {
        switch location.storage {
        case .wholeBody: nil
        case .pointer(let pointer): pointer.description
        case .jsonPath(let path): path.text
        }
    }

    /// What the request has where a body condition looks, shortened: the body's text, the value at a
    /// pointer, the values a JSONPath selects.
    private static func received(at location: BodyLocation, body: [UInt8], parts: inout LazyRequestParts) -> [String] {
        let values: [String]
        switch location.storage {
        case .wholeBody:
            values = body.isEmpty ? [] : [String(decoding: body, as: UTF8.self)]
        case .pointer(let pointer):
            values = parts.jsonBody.flatMap { $0.value(at: pointer) }.map { value in
                if case .string(let string) = value { return [string] }
                return [value.canonicalText]
            } ?? []
        case .jsonPath(let path):
            values = parts.verbatimJSONBody.map { path.matchedValues(in: $0).prefix(NearMiss.listedDifferences).map(JSONPath.matchText) } ?? []
        }
        return values.map { value in
            value.count > quotedBodyLimit ? value.prefix(quotedBodyLimit) + "… (\(value.utf8.count) bytes)" : value
        }
    }
}
