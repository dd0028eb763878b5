import Foundation
import Tonearm
import TonearmServer

/// The journal in WireMock's shapes: `ServeEvent`s and `LoggedRequest`s, with only the fields
/// WireMock defines (its Java client refuses unknown ones in serve events).
struct WireMockServeEvents: Sendable {
    /// The first 24 hex digits of every serve-event id of this server; the last 12 are the entry's
    /// sequence number, so an id finds its entry without a table.
    let idPrefix: String
    /// `http://127.0.0.1:PORT`, for `absoluteUrl`.
    let baseURL: String
    /// Whether logged requests carry `formParams`, as WireMock 3's do (2.35's Java client refuses the
    /// field).
    var logsFormParameters = true

    /// A prefix drawn once per server, so ids from two servers never collide.
    static func makePrefix() -> String {
        let random = UUID().uuidString.lowercased()
        return String(random.prefix(24))
    }

    /// The serve-event id of the journal entry numbered `sequence`.
    func id(_ sequence: Int) -> String {
        let hex = String(sequence, radix: 16)
        return idPrefix + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// The sequence number an id of this server stands for.
    func sequence(of id: String) -> Int? {
        let lowered = id.lowercased()
        guard lowered.count == 36, lowered.hasPrefix(idPrefix) else { return nil }
        return Int(lowered.suffix(12), radix: 16)
    }

    /// A `ServeEvent`: what was asked, which mapping answered (when one did) and what was sent.
    func serveEvent(_ entry: JournalEntry, mapping: WireMockMapping?) -> JSONValue {
        let milliseconds = Self.milliseconds(entry.latency)
        let matched = entry.source.kind != .miss
        var responseDefinition = mapping?.responseDefinition ?? .object(["status": .integer(entry.response?.status ?? 404)])
        if mapping == nil, let response = entry.response, !matched {
            // `fromConfiguredStub: false` is how WireMock's Java client tells a miss from a stub's answer.
            responseDefinition = .object([
                "status": .integer(response.status), "body": .string(String(decoding: response.body, as: UTF8.self)),
                "fromConfiguredStub": .bool(false),
            ])
        }
        let faultResponse = entry.response == nil ? mapping.flatMap(Self.faultResponse) : nil
        return .object([
            "id": .string(id(entry.sequence)),
            "request": loggedRequest(entry.request, time: entry.time, clientAddress: entry.clientAddress),
            "stubMapping": mapping?.json,
            "responseDefinition": responseDefinition,
            "response": entry.response.map { response in
                // `bodyAsBase64` is the only body WireMock's Java client reads, and the only one a binary
                // body survives in.
                .object([
                    "status": .integer(response.status),
                    "headers": Self.headers(response.headers),
                    "bodyAsBase64": .string(Data(response.body).base64EncodedString()),
                    "body": .string(String(decoding: response.body, as: UTF8.self)),
                ])
            } ?? faultResponse,
            "wasMatched": .bool(matched),
            "timing": .object([
                "addedDelay": .integer(0), "processTime": .integer(milliseconds), "responseSendTime": .integer(0),
                "serveTime": .integer(milliseconds), "totalTime": .integer(milliseconds),
            ]),
        ])
    }

    /// What WireMock logs as the response of a mapping that plays a fault: status 200, the naming
    /// headers, no body, and the fault's name; `nil` for a mapping without a fault.
    private static func faultResponse(_ mapping: WireMockMapping) -> JSONValue? {
        guard case .string(let fault)? = mapping.json[member: "response"]?[member: "fault"] else { return nil }
        var name: JSONValue?
        if case .string(let given)? = mapping.json[member: "name"] { name = .string(given) }
        let headers: JSONValue = .object(["Matched-Stub-Id": .string(mapping.id), "Matched-Stub-Name": name])
        return .object(["status": .integer(200), "headers": headers, "body": .string(""), "fault": .string(fault)])
    }

    /// A `LoggedRequest`: `url` is the path and query as the client sent it (for a request that stood for
    /// an upstream URL, that URL's path and query), `absoluteUrl` the full URL; `clientIp` the client's
    /// address when known (2.35 and 3.x both log it).
    func loggedRequest(_ request: Request, time: Date, clientAddress: String? = nil) -> JSONValue {
        let (url, absolute) = Self.urls(request.url, baseURL: baseURL)
        let loggedDate = Int((time.timeIntervalSince1970 * 1000).rounded(.down))
        let server = URLComponents(string: absolute)
        return .object([
            "url": .string(url),
            "absoluteUrl": .string(absolute),
            "method": .string(request.method),
            "scheme": server?.scheme.map(JSONValue.string),
            "host": server?.host.map(JSONValue.string),
            "port": server?.port.map(JSONValue.integer),
            "headers": Self.headers(request.headers),
            "cookies": Self.cookies(request.headers),
            "queryParams": Self.queryParameters(url),
            "formParams": logsFormParameters ? Self.formParameters(request) : nil,
            "clientIp": clientAddress.map(JSONValue.string),
            "protocol": .string("HTTP/1.1"),
            "browserProxyRequest": .bool(false),
            "loggedDate": .integer(loggedDate),
            "loggedDateString": .string(time.formatted(.iso8601)),
            "bodyAsBase64": .string(Data(request.body).base64EncodedString()),
            "body": .string(String(decoding: request.body, as: UTF8.self)),
        ])
    }

    /// Headers as WireMock writes them: one value as a string, repeated ones as an array.
    static func headers(_ fields: [HeaderField]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for field in fields {
            if values[field.name] == nil { order.append(field.name) }
            values[field.name, default: []].append(field.value)
        }
        return .object(order.map { name in
            let list = values[name] ?? []
            return JSONMember(key: name, value: list.count == 1 ? .string(list[0]) : .array(list.map(JSONValue.string)))
        })
    }

    /// The `Cookie` headers' cookies by name, as WireMock logs them (one value as a string).
    static func cookies(_ fields: [HeaderField]) -> JSONValue {
        var cookies: [HeaderField] = []
        for header in fields where header.name.lowercased() == "cookie" {
            for pair in header.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
                cookies.append(HeaderField(name, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""))
            }
        }
        return headers(cookies)
    }

    /// The query's parameters as WireMock logs them: `{"name": {"key": "name", "values": [...]}}`.
    static func queryParameters(_ pathAndQuery: String) -> JSONValue {
        guard let start = pathAndQuery.firstIndex(of: "?") else { return .object([]) }
        return multiValues(FormEncoding.pairs(pathAndQuery[pathAndQuery.index(after: start)...]))
    }

    /// `formParams` (WireMock 3): an `application/x-www-form-urlencoded` body's parameters, shaped as
    /// `queryParams`; `{}` for another body.
    static func formParameters(_ request: Request) -> JSONValue {
        guard let contentType = request.headers.first(named: "Content-Type"), contentType.lowercased().contains("application/x-www-form-urlencoded") else {
            return .object([])
        }
        return multiValues(request.body.withUnsafeBytes { FormEncoding.pairs($0) })
    }

    /// `{"a": {"key": "a", "values": ["1", "2"]}}`, names in the order first sent.
    private static func multiValues(_ pairs: [FormPair]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for pair in pairs {
            if values[pair.decodedName] == nil { order.append(pair.decodedName) }
            values[pair.decodedName, default: []].append(pair.decodedValue)
        }
        return .object(order.map { name in
            JSONMember(key: name, value: .object(["key": .string(name), "values": .array((values[name] ?? []).map(JSONValue.string))]))
        })
    }

    /// The path-and-query and absolute forms of a journaled URL.
    static func urls(_ url: String, baseURL: String) -> (String, String) {
        guard let separator = url.range(of: "://") else { return (url, baseURL + url) }
        let rest = url[separator.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var path = String(rest[pathStart...])
        if !path.hasPrefix("/") { path = "/" + path }
        return (path, url)
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let parts = duration.components
        return Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
