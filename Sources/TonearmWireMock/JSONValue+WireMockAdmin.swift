import Foundation
import Tonearm

/// Reading and writing the admin API's JSON with the core's one JSON model (``JSONValue``): request
/// bodies are parsed with `JSONValue(parsing:)`, answers are built as values and written as RFC 8785
/// text (compact, members sorted), which every WireMock client reads.
extension JSONValue {
    /// The member named `key` of an object (the first when repeated), or `nil`.
    subscript(member key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string value, or `nil`.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// An integer value (`5`, `5.0`), or `nil`.
    var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// An object built from `members` in order, leaving out `nil` values.
    static func object(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { key, value in value.map { JSONMember(key: key, value: $0) } })
    }

    /// An integer.
    static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A finite number as its ECMAScript text (`0.25`, `1e-7`).
    static func double(_ value: Double) -> JSONValue {
        .number(ECMAScriptNumber.format(value.isFinite ? value : 0))
    }

    /// This object with `key` set to `value` (replacing the member, or added at the end).
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
        return .object(members)
    }

    /// This object without `key`.
    func removing(_ key: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }

    /// The value as compact JSON bytes.
    var bytes: [UInt8] { Array(canonicalText.utf8) }
}

/// One entry of WireMock's error document `{"errors":[{"code","source":{"pointer"},"title","detail"}]}`,
/// which its Java client parses from every 4xx answer.
struct WireMockError: Error, Sendable {
    /// The HTTP status: 422 for a mapping or pattern Tonearm refuses, 400 for a malformed id, 404 for
    /// nothing there.
    var status: Int
    /// WireMock's error code (10 for invalid input).
    var code = 10
    /// A JSON Pointer to the offending member of the request body, as precisely as Tonearm knows it
    /// (`""` for the whole body); for a query parameter, its name (as WireMock writes it); `nil` for no
    /// `source` at all (a body that is not JSON, an error about no member). The document reports it as
    /// WireMock does (``reportedPointer``), and names it in `detail` when that is less precise.
    var pointer: String?
    var title: String
    /// Tonearm's own account of the problem, beside WireMock's title; empty (and left out) when the title
    /// says it all, as in WireMock's own query-parameter errors.
    var detail: String

    /// An error about the member at `pointer` (`nil`: about no member).
    static func invalid(_ pointer: String?, _ title: String, detail: String) -> WireMockError {
        WireMockError(status: 422, pointer: pointer, title: title, detail: detail)
    }

    /// The error document: `source.pointer` where WireMock 2.35.1 points (``reportedPointer``), which
    /// its clients and tests read, and `detail` naming the precise member when that differs (unless
    /// the detail names it already, as the importer's `at $.request…` does).
    var json: JSONValue {
        let reported = reportedPointer
        var detail = detail
        if let pointer, reported != pointer, !detail.contains("at $.") {
            detail = "at \(pointer.isEmpty ? "/" : pointer): \(detail)"
        }
        return .object([
            "errors": .array([.object([
                "code": .integer(code),
                "source": reported.map { .object(["pointer": .string($0)]) },
                "title": .string(title),
                "detail": detail.isEmpty ? nil : .string(detail),
            ])]),
        ])
    }

    /// A JSON Pointer for a document path written `$.request.headers["X-Id"]` or `$.mappings[2]`.
    static func pointer(forPath path: String?) -> String {
        guard let path, path.hasPrefix("$") else { return "" }
        var rest = Substring(path)
        rest = rest.dropFirst()
        var pointer = ""
        while !rest.isEmpty {
            if rest.hasPrefix(".") {
                let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                pointer += "/" + escape(String(name))
                rest = rest.dropFirst(1 + name.count)
            } else if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                var inside = String(rest[rest.index(after: rest.startIndex)..<close])
                if inside.hasPrefix("\""), inside.hasSuffix("\""), inside.count >= 2 { inside = String(inside.dropFirst().dropLast()) }
                pointer += "/" + escape(inside)
                rest = rest[rest.index(after: close)...]
            } else {
                break
            }
        }
        return pointer
    }

    private static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension Response {
    /// A WireMock admin answer: `status` with `json` as an `application/json` body.
    static func adminJSON(_ json: JSONValue, status: Int = 200) -> Response {
        Response(status: status, headers: [HeaderField("Content-Type", "application/json")], body: json.bytes)
    }

    /// The answer to an admin call WireMock 2.35.1 answers with an empty 200 (a reset, a save, an
    /// import, a removal by request pattern): no body, as its clients expect none.
    static let adminDone = Response(status: 200)

    /// The error document for `error`, with its status.
    static func adminError(_ error: WireMockError) -> Response {
        adminJSON(error.json, status: error.status)
    }
}
