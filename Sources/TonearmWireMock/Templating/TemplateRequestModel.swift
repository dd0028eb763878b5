import Foundation
import Tonearm

/// WireMock's request model as templates see it: `request.url`, `path`, `pathSegments`, `query`,
/// `method`, `headers` (names in any case), `cookies`, `body`, `baseUrl` and (WireMock 3) `clientIp`. Built once per answer and
/// shared by the body and header templates. With a mapping's `urlPathTemplate`, `request.path` also
/// has the segments by index and the template's parameters by name (`request.path.contactId`), as in
/// WireMock 3.
package struct TemplateRequestModel: Sendable {
    let value: TemplateValue

    /// The model of `request` (its `url` the target as sent: path and query), reached at `baseURL`
    /// (`http://host:port`, from the request's `Host`); `pathTemplate` reads the path's parameters;
    /// `clientAddress` is the client's IP address, `request.clientIp` (absent when `nil`, as in 2.35).
    package init(_ request: Request, baseURL: String, pathTemplate: PathTemplate? = nil, clientAddress: String? = nil) {
        let target = request.url
        let pathEnd = target.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? target.endIndex
        let path = String(target[..<pathEnd])
        var queryText = target[pathEnd...].dropFirst()
        if let fragment = queryText.firstIndex(of: "#") { queryText = queryText[..<fragment] }

        var query: [(key: String, values: [String])] = []
        for pair in queryText.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decoded(parts[0])
            let value = parts.count > 1 ? Self.decoded(parts[1]) : ""
            if let index = query.firstIndex(where: { $0.key == name }) { query[index].values.append(value) } else { query.append((name, [value])) }
        }

        var headers: [(key: String, values: [String])] = []
        var cookies: [(key: String, values: [String])] = []
        for field in request.headers {
            if let index = headers.firstIndex(where: { $0.key.lowercased() == field.name.lowercased() }) {
                headers[index].values.append(field.value)
            } else {
                headers.append((field.name, [field.value]))
            }
            guard field.name.lowercased() == "cookie" else { continue }
            for cookie in field.value.split(separator: ";") {
                let parts = cookie.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).trimmingSpaces
                let value = parts.count > 1 ? String(parts[1]).trimmingSpaces : ""
                if let index = cookies.firstIndex(where: { $0.key == name }) { cookies[index].values.append(value) } else { cookies.append((name, [value])) }
            }
        }
        // WireMock lists headers by name in alphabetical order, whatever order they came in.
        headers.sort { $0.key.lowercased() < $1.key.lowercased() }

        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { TemplateValue.string(Self.decoded($0)) }
        var model: [(key: String, value: TemplateValue)] = [
            ("url", .string(target)),
            ("path", Self.path(path, template: pathTemplate)),
            ("pathSegments", .list(segments)),
            ("query", .map(query.map { (key: $0.key, value: TemplateValue.multi($0.values)) }, caseInsensitive: false)),
            ("method", .string(request.method)),
            ("headers", .map(headers.map { (key: $0.key, value: TemplateValue.multi($0.values)) }, caseInsensitive: true)),
            ("cookies", .map(cookies.map { (key: $0.key, value: TemplateValue.multi($0.values)) }, caseInsensitive: false)),
            ("body", .string(String(decoding: request.body, as: UTF8.self))),
            ("baseUrl", .string(baseURL)),
        ]
        if let clientAddress { model.append(("clientIp", .string(clientAddress))) }
        value = .map([("request", .map(model, caseInsensitive: false))], caseInsensitive: false)
    }

    /// `request.path`: the path, or with a template that reads it, the path with its segments (as sent)
    /// and parameters as members. A parameter named as a segment's index wins, as WireMock's map has it.
    private static func path(_ path: String, template: PathTemplate?) -> TemplateValue {
        // WireMock's `request.path` is percent-decoded (`/a/b%20c` reads `/a/b c`), as its segments are.
        guard let parameters = template?.parameters(in: path) else { return .string(decoded(Substring(path))) }
        var members: [(key: String, value: TemplateValue)] = []
        for (index, segment) in path.split(separator: "/", omittingEmptySubsequences: true).enumerated() {
            members.append((String(index), .string(String(segment))))
        }
        for (name, value) in parameters { members.append((name, .string(value))) }
        return .path(path, members: members)
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
