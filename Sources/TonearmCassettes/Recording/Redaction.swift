import Foundation
import Tonearm

/// What to hide before anything is written: header values, query parameter values and JSON body
/// fields, each replaced by a visible placeholder so reviewers see that something was there.
///
/// Apply the same redaction to live requests (``redact(_:)-(Request)``) and matching keeps working on
/// redacted fields: both sides then carry the placeholder.
public struct Redaction: Sendable, Hashable {
    /// Header names (any case) whose values are replaced, in requests and responses.
    public var headers: Set<String>
    /// Query parameter names whose values are replaced in request URLs.
    public var queryParameters: Set<String>
    /// JSON body locations replaced in request and response bodies; a `*` token stands for every
    /// element or member at that level.
    public var jsonFields: [JSONPointer]
    /// The text put in place of a secret.
    public var placeholder: String
    /// Media types read as JSON besides `application/json` and `type/name+json`, lowercased: give the
    /// matching configuration's `MatchingConfiguration/additionalJSONMediaTypes` so that a body is
    /// JSON to redaction exactly when it is JSON to matching.
    public var additionalJSONMediaTypes: Set<String>

    /// The headers redacted by default: `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`.
    public static let defaultHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]

    /// Creates a redaction; by default it hides the ``defaultHeaders`` only.
    public init(
        headers: Set<String> = Redaction.defaultHeaders, queryParameters: Set<String> = [],
        jsonFields: [JSONPointer] = [], placeholder: String = "<redacted>", additionalJSONMediaTypes: Set<String> = []
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = queryParameters
        self.jsonFields = jsonFields
        self.placeholder = placeholder
        self.additionalJSONMediaTypes = additionalJSONMediaTypes
    }

    /// The default redaction.
    public static var `default`: Redaction { Redaction() }

    /// `request` with its secrets replaced.
    public func redact(_ request: Request) -> Request {
        var copy = request
        copy.headers = redactHeaders(request.headers)
        copy.url = redactQuery(request.url)
        copy.body = redactJSON(request.body, contentType: request.headers.first(named: "Content-Type"))
        return copy
    }

    /// `response` with its secrets replaced.
    public func redact(_ response: Response) -> Response {
        var copy = response
        copy.headers = redactHeaders(response.headers)
        copy.body = redactJSON(response.body, contentType: response.headers.first(named: "Content-Type"))
        return copy
    }

    /// `track` with its request and response redacted, and its WebSocket conversation's JSON text
    /// messages (an app's sign-in message carries its token as a request body would).
    public func redact(_ track: Track) -> Track {
        var copy = track
        copy.request = redact(track.request)
        if case .response(let response) = track.outcome { copy.outcome = .response(redact(response)) }
        if let conversation = track.webSocket { copy.webSocket = redact(conversation) }
        return copy
    }

    /// `conversation` with the JSON fields redacted in its text messages that are JSON.
    public func redact(_ conversation: WebSocketConversation) -> WebSocketConversation {
        guard !jsonFields.isEmpty else { return conversation }
        var copy = conversation
        for index in copy.messages.indices where copy.messages[index].kind == .text {
            copy.messages[index].payload = redactTextMessage(copy.messages[index].payload)
        }
        return copy
    }

    /// A WebSocket text message's `payload` with the JSON fields redacted, when it is JSON: what a
    /// recording keeps of it, and so what a replay compares a live message as.
    public func redactTextMessage(_ payload: [UInt8]) -> [UInt8] {
        jsonFields.isEmpty ? payload : redactJSONDocument(payload)
    }

    private func redactHeaders(_ fields: [HeaderField]) -> [HeaderField] {
        // Most messages carry no secret: they keep their array (live requests are redacted before every
        // match, so this is on the replay path).
        guard fields.contains(where: redactsHeader) else { return fields }
        return fields.map { redactsHeader($0) ? HeaderField($0.name, placeholder) : $0 }
    }

    /// Whether the value of `field` is hidden. Header names are ASCII tokens, compared without case.
    private func redactsHeader(_ field: HeaderField) -> Bool {
        headers.contains { field.name.equalsIgnoringASCIICase($0) }
    }

    /// Whether the query parameter `name` (as written in a URL, escapes and all) is one whose value is
    /// hidden. Names compare by the core's form rules, as matching compares them: "api key", "api+key"
    /// and "api%20key" are one name.
    func redactsQueryParameter(named name: some StringProtocol) -> Bool {
        guard !queryParameters.isEmpty else { return false }
        let canonical = FormEncoding.canonicalName(String(name))
        return queryParameters.contains { FormEncoding.canonicalName($0) == canonical }
    }

    /// Whether a body sent with `contentType` is JSON, by the core's predicate that matching uses.
    func isJSON(_ contentType: String?) -> Bool {
        contentType.map { MediaType.isJSON($0, additional: additionalJSONMediaTypes) } ?? false
    }

    /// `url` with the values of redacted query parameters replaced; every other byte is kept as written,
    /// so the URL differs from the original only where a secret was.
    private func redactQuery(_ url: String) -> String {
        guard !queryParameters.isEmpty, let questionMark = url.firstIndex(of: "?") else { return url }
        let afterQuery = url[url.index(after: questionMark)...]
        let fragmentStart = afterQuery.firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: questionMark)..<fragmentStart]
        let encodedPlaceholder = FormLiteral.component(placeholder)
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return redactsQueryParameter(named: name) ? name + "=" + encodedPlaceholder : String(pair)
        }
        return url[...questionMark] + pairs.joined(separator: "&") + url[fragmentStart...]
    }

    private func redactJSON(_ body: [UInt8], contentType: String?) -> [UInt8] {
        guard !jsonFields.isEmpty, isJSON(contentType) else { return body }
        return redactJSONDocument(body)
    }

    /// `bytes` with the JSON fields replaced, when they are a JSON document; else as they are.
    private func redactJSONDocument(_ bytes: [UInt8]) -> [UInt8] {
        guard var node = try? JSONDocumentParser.parse(DocumentSource(file: nil, bytes: bytes)) else { return bytes }
        var changed = false
        for pointer in jsonFields {
            JSONRedactor.replace(at: pointer.tokens[...], in: &node, with: placeholder, changed: &changed)
        }
        return changed ? JSONOutput(node).compact() : bytes
    }
}

/// Replaces the values a JSON Pointer designates in a parsed document.
enum JSONRedactor {
    static func replace(at tokens: ArraySlice<String>, in node: inout DocumentNode, with placeholder: String, changed: inout Bool) {
        guard let token = tokens.first else {
            node.value = .string(placeholder)
            changed = true
            return
        }
        let rest = tokens.dropFirst()
        switch node.value {
        case .object(var members):
            for index in members.indices where token == "*" || members[index].key == token {
                replace(at: rest, in: &members[index].value, with: placeholder, changed: &changed)
            }
            node.value = .object(members)
        case .array(var elements):
            for index in elements.indices where token == "*" || Int(token) == index {
                replace(at: rest, in: &elements[index], with: placeholder, changed: &changed)
            }
            node.value = .array(elements)
        default:
            return
        }
    }
}
