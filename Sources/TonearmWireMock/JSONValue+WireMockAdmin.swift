import Foundation
import Tonearm
import TonearmServer

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
    /// The answer to an admin call WireMock 2.35.1 answers with an empty 200 (a reset, a save, an
    /// import, a removal by request pattern): no body, as its clients expect none.
    static let adminDone = Response(status: 200)

    /// The error document for `error`, with its status.
    static func adminError(_ error: WireMockError) -> Response {
        adminJSON(error.json, status: error.status)
    }
}
