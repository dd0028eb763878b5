import Foundation
import Tonearm
import TonearmServer
import TonearmCassettes

/// One exchange to make a mapping of: the request as the client sent it and the answer it got.
struct WireMockRecordedExchange: Sendable {
    let request: Request
    let response: Response
}

/// A mapping made from a recorded exchange, as WireMock's recorder writes it, before it is read back
/// by the one mapping reader (``WireMockMapping/decode(_:source:id:reading:)``).
struct WireMockRecordedMapping: Sendable {
    let id: String
    /// The name made from the request's path (`rec_json_a` for `/rec/json/a?x=1`), also the stem of
    /// the mapping's file (`mappings/<name>-<id>.json`) and of an extracted body's.
    let name: String
    let json: JSONValue
    /// A body moved to `__files`: its file name there and its bytes.
    let bodyFile: BodyFile?

    struct BodyFile: Sendable {
        let name: String
        let bytes: [UInt8]
    }
}

/// Turns recorded exchanges into WireMock mappings the way WireMock 2.35.1's recorder does (checked
/// against the jar with scripts/wiremock-diff.py): `url` and `method`, the captured headers as
/// `equalTo`, a body pattern chosen by the request's `Content-Type`, the response's status, headers
/// and body (`body`, `base64Body`, or `bodyFileName` above the size thresholds), a name from the path,
/// and identical requests made one mapping or a scenario of several. Secrets are redacted first, with
/// the server's redaction, as every recording Tonearm writes is.
struct WireMockMappingGenerator: Sendable {
    let spec: WireMockRecordSpec
    let redaction: Redaction
    /// Whether bodies can be moved to `__files` (the server has a root directory).
    let extractsBodies: Bool

    /// Response headers a recording leaves out: they describe how this exchange was framed, or name the
    /// mapping that proxied it, not what the upstream answered.
    private static let droppedResponseHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "matched-stub-id", "matched-stub-name",
    ]

    /// The mappings for `exchanges`, in their order.
    func mappings(for exchanges: [WireMockRecordedExchange]) -> [WireMockRecordedMapping] {
        var made: [(request: JSONValue, name: String, exchange: WireMockRecordedExchange)] = []
        for exchange in exchanges {
            let request = redaction.redact(exchange.request)
            made.append((requestPattern(request), Self.name(forURL: request.url), exchange))
        }
        // Identical request patterns: one mapping each (the first answer), or a scenario in order.
        var groups: [JSONValue: [Int]] = [:]
        var groupOrder: [JSONValue] = []
        for (index, item) in made.enumerated() {
            if groups[item.request] == nil { groupOrder.append(item.request) }
            groups[item.request, default: []].append(index)
        }
        var scenarioSteps: [Int: (scenario: String, required: String, next: String?)] = [:]
        var kept = Set(made.indices)
        var scenarioCount = 0
        for key in groupOrder {
            guard let members = groups[key], members.count > 1 else { continue }
            guard spec.repeatsAsScenarios else {
                kept.subtract(members.dropFirst())
                continue
            }
            scenarioCount += 1
            let scenario = "scenario-\(scenarioCount)-" + made[members[0]].name.replacingOccurrences(of: "_", with: "-")
            for (position, index) in members.enumerated() {
                let required = position == 0 ? ScenarioStep.startedState : "\(scenario)-\(position + 1)"
                let next = position + 1 < members.count ? "\(scenario)-\(position + 2)" : nil
                scenarioSteps[index] = (scenario, required, next)
            }
        }
        return made.indices.filter(kept.contains).map { index in
            let item = made[index]
            let id = WireMockMapping.freshID()
            let (response, bodyFile) = responseDefinition(redaction.redact(item.exchange.response), name: item.name, id: id)
            let step = scenarioSteps[index]
            let json = JSONValue.object([
                "id": .string(id),
                "name": .string(item.name),
                "request": item.request,
                "response": response,
                "uuid": .string(id),
                "persistent": spec.persist ? .bool(true) : nil,
                "scenarioName": step.map { .string($0.scenario) },
                "requiredScenarioState": step.map { .string($0.required) },
                "newScenarioState": step?.next.map { .string($0) },
            ])
            return WireMockRecordedMapping(id: id, name: item.name, json: json, bodyFile: bodyFile)
        }
    }

    // MARK: The request pattern

    private func requestPattern(_ request: Request) -> JSONValue {
        let (url, _) = WireMockServeEvents.urls(request.url, baseURL: "")
        var headers: [JSONMember] = []
        for captured in spec.captureHeaders {
            // A header redaction hid is left out: a pattern holding the placeholder would never match.
            guard let value = request.headers.first(named: captured.name), value != redaction.placeholder else { continue }
            headers.append(JSONMember(key: captured.name, value: .object([
                "equalTo": .string(value), "caseInsensitive": captured.caseInsensitive ? .bool(true) : nil,
            ])))
        }
        return .object([
            "url": .string(url),
            "method": .string(request.method),
            "headers": headers.isEmpty ? nil : .object(headers),
            "bodyPatterns": request.body.isEmpty ? nil : .array([bodyPattern(request)]),
        ])
    }

    /// `equalToJson` for a JSON body (both leniencies on unless the spec says otherwise), `equalToXml`
    /// for an XML one, `equalTo` for text, `binaryEqualTo` for anything else; or the matcher the spec names.
    private func bodyPattern(_ request: Request) -> JSONValue {
        let options = spec.requestBodyPattern
        let contentType = request.headers.first(named: "Content-Type")
        let text = String(decoding: request.body, as: UTF8.self)
        switch options.matcher {
        case .equalToJson:
            return .object([
                "equalToJson": .string(text),
                "ignoreArrayOrder": options.ignoreArrayOrder.map(JSONValue.bool),
                "ignoreExtraElements": options.ignoreExtraElements.map(JSONValue.bool),
            ])
        case .equalToXml:
            return .object(["equalToXml": .string(text)])
        case .equalTo:
            return .object(["equalTo": .string(text), "caseInsensitive": .bool(options.caseInsensitive ?? false)])
        case .auto:
            if let contentType, MediaType.isJSON(contentType) {
                return .object([
                    "equalToJson": .string(text),
                    "ignoreArrayOrder": .bool(options.ignoreArrayOrder ?? true),
                    "ignoreExtraElements": .bool(options.ignoreExtraElements ?? true),
                ])
            }
            if let contentType, MediaType.essence(of: contentType).hasSuffix("xml") {
                return .object(["equalToXml": .string(text)])
            }
            // A body without a Content-Type is taken as text (invalid UTF-8 replaced), as WireMock takes it.
            if contentType == nil || MediaType.isText(contentType) {
                return .object(["equalTo": .string(text), "caseInsensitive": .bool(options.caseInsensitive ?? false)])
            }
            return .object(["binaryEqualTo": .string(Data(request.body).base64EncodedString())])
        }
    }

    // MARK: The response

    private func responseDefinition(_ response: Response, name: String, id: String) -> (JSONValue, WireMockRecordedMapping.BodyFile?) {
        let contentType = response.headers.first(named: "Content-Type")
        let isText = Self.isText(response.body, contentType: contentType)
        var body: (key: String, value: String)?
        var bodyFile: WireMockRecordedMapping.BodyFile?
        if !response.body.isEmpty {
            let threshold = isText ? spec.textSizeThreshold : spec.binarySizeThreshold
            if extractsBodies, let threshold, response.body.count > threshold {
                let file = "\(name)-\(id).\(Self.fileExtension(contentType))"
                bodyFile = WireMockRecordedMapping.BodyFile(name: file, bytes: response.body)
                body = ("bodyFileName", file)
            } else if isText {
                body = ("body", String(decoding: response.body, as: UTF8.self))
            } else {
                body = ("base64Body", Data(response.body).base64EncodedString())
            }
        }
        var members = [JSONMember(key: "status", value: .integer(response.status))]
        if let body { members.append(JSONMember(key: body.key, value: .string(body.value))) }
        if let headers = Self.headers(response.headers) { members.append(JSONMember(key: "headers", value: headers)) }
        return (.object(members), bodyFile)
    }

    /// The headers as a mapping writes them: a value, or a list for a header sent more than once.
    private static func headers(_ fields: [HeaderField]) -> JSONValue? {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in fields where !droppedResponseHeaders.contains(field.name.lowercased()) {
            let key = field.name.lowercased()
            if values[key] == nil { names.append(field.name) }
            values[key, default: []].append(field.value)
        }
        guard !names.isEmpty else { return nil }
        return .object(names.map { name in
            let list = values[name.lowercased()] ?? []
            return JSONMember(key: name, value: list.count == 1 ? .string(list[0]) : .array(list.map(JSONValue.string)))
        })
    }

    /// Whether a body is text: by its `Content-Type` (text, JSON, XML, forms), or, without one, when it
    /// is valid UTF-8.
    private static func isText(_ body: [UInt8], contentType: String?) -> Bool {
        guard let contentType else { return String(bytes: body, encoding: .utf8) != nil }
        return MediaType.isText(contentType)
    }

    /// The extension of an extracted body's file, from its `Content-Type` as WireMock picks it: `json`,
    /// `xml`, an image's subtype (`png`), `txt` for anything else (HTML and `octet-stream` included).
    private static func fileExtension(_ contentType: String?) -> String {
        guard let contentType else { return "txt" }
        let essence = MediaType.essence(of: contentType)
        if MediaType.isJSON(essence: essence) { return "json" }
        if essence.hasSuffix("xml") { return "xml" }
        if essence.hasPrefix("image/") {
            let subtype = essence.dropFirst("image/".count)
            if !subtype.isEmpty, subtype.allSatisfy({ $0.isLetter || $0.isNumber }) { return String(subtype) }
        }
        return "txt"
    }

    /// WireMock's name for a recorded mapping: the path without its query, percent escapes decoded, the
    /// leading `/` dropped, `/` made `_` and white space `-`, only letters, digits, `_` and `-` kept,
    /// trailing `_` dropped, lowercased.
    static func name(forURL url: String) -> String {
        let (target, _) = WireMockServeEvents.urls(url, baseURL: "")
        var path = String(target.prefix { $0 != "?" && $0 != "#" })
        path = path.removingPercentEncoding ?? path
        if path.hasPrefix("/") { path.removeFirst() }
        var name = ""
        for character in path.unicodeScalars {
            switch character {
            case "/": name.append("_")
            case " ", "\t": name.append("-")
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": name.unicodeScalars.append(character)
            default: continue
            }
        }
        // Lowercased, without the `_` a trailing `/` leaves, as WireMock names them.
        while name.hasSuffix("_") { name.removeLast() }
        return name.lowercased()
    }
}
