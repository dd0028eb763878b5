import Tonearm
import TonearmServer

/// A mapping's `proxyBaseUrl`: the request is sent on to that base (its path and query appended, as
/// WireMock appends them) with `additionalProxyRequestHeaders` set, and the upstream's answer is sent
/// back. Never an open proxy: the upstream is the one the mapping names, whatever the request says
/// (its target always starts with `/`, so it only ever adds a path under the base).
struct WireMockProxy: Sendable {
    /// The base URL, without a trailing `/`.
    let base: String
    /// Headers set on the proxied request, replacing the client's of the same name.
    let additionalHeaders: [HeaderField]

    init(base json: JSONValue, headers: JSONValue?) throws(WireMockError) {
        guard let text = json.stringValue, text.hasPrefix("http://") || text.hasPrefix("https://"), UpstreamHost(ofURL: text) != nil else {
            throw .invalid("/response/proxyBaseUrl", "Invalid stub mapping", detail: "proxyBaseUrl must be an http:// or https:// URL")
        }
        base = text.hasSuffix("/") ? String(text.dropLast()) : text
        var fields: [HeaderField] = []
        if let headers {
            guard case .object(let members) = headers else {
                throw .invalid("/response/additionalProxyRequestHeaders", "Invalid stub mapping", detail: "additionalProxyRequestHeaders must be an object of header values")
            }
            for member in members {
                guard let value = member.value.stringValue else {
                    throw .invalid("/response/additionalProxyRequestHeaders/\(member.key)", "Invalid stub mapping", detail: "a header value must be a string")
                }
                fields.append(HeaderField(member.key, value))
            }
        }
        additionalHeaders = fields
    }

    /// `request` (its target as sent) as sent on to the upstream.
    func upstreamRequest(for request: Request) -> Request {
        var headers = request.headers.filter { field in !additionalHeaders.contains { $0.name.equalsIgnoringASCIICase(field.name) } }
        headers.append(contentsOf: additionalHeaders)
        return Request(method: request.method, url: base + request.url, headers: headers, body: request.body)
    }
}
