import Tonearm
import TonearmServer
import TonearmCassettes

/// The `StringValuePattern` of `POST /__admin/mappings/remove-by-metadata`, applied to each mapping's
/// `metadata`: `{"matchesJsonPath": "$.path"}` (the path exists), `{"matchesJsonPath": {"expression":
/// "$.path", "equalTo"|"contains": text}}`, or `{"equalToJson": {...}}` (the metadata equals it).
/// Paths are full JSONPath (``JSONPath``), read as in mappings' `matchesJsonPath`.
struct WireMockMetadataPattern: Sendable {
    private enum Test: Sendable {
        case present(JSONPath)
        case equals(JSONPath, String)
        case contains(JSONPath, String)
        case wholeEquals(JSONValue)
    }

    private let test: Test

    init(_ body: [UInt8]) throws(WireMockError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid(nil, "Error parsing JSON", detail: "POST /__admin/mappings/remove-by-metadata: \(error)")
        }
        if let expected = json[member: "equalToJson"] {
            if let text = expected.stringValue, let parsed = try? JSONValue(parsing: Array(text.utf8)) {
                test = .wholeEquals(parsed)
            } else {
                test = .wholeEquals(expected)
            }
            return
        }
        guard let path = json[member: "matchesJsonPath"] else {
            throw .invalid("", "Unsupported metadata pattern", detail: "Tonearm supports matchesJsonPath and equalToJson for remove-by-metadata")
        }
        if let expression = path.stringValue {
            test = .present(try Self.path(expression, at: "/matchesJsonPath"))
        } else if let expression = path[member: "expression"]?.stringValue {
            let selected = try Self.path(expression, at: "/matchesJsonPath/expression")
            if let value = path[member: "equalTo"]?.stringValue {
                test = .equals(selected, value)
            } else if let value = path[member: "contains"]?.stringValue {
                test = .contains(selected, value)
            } else {
                throw .invalid("/matchesJsonPath", "Unsupported metadata pattern", detail: "expected equalTo or contains beside expression")
            }
        } else {
            throw .invalid("/matchesJsonPath", "Unsupported metadata pattern", detail: "expected a JSONPath or {\"expression\", \"equalTo\"|\"contains\"}")
        }
    }

    private static func path(_ expression: String, at location: String) throws(WireMockError) -> JSONPath {
        do {
            return try JSONPath(expression)
        } catch {
            throw .invalid(location, "Unsupported metadata pattern", detail: "\(expression.debugDescription): \(error)")
        }
    }

    /// Whether a mapping with `metadata` matches.
    func matches(_ metadata: JSONValue?) -> Bool {
        guard let metadata else { return false }
        switch test {
        case .present(let path):
            return !path.matchedValues(in: metadata).isEmpty
        case .equals(let path, let text):
            return path.matchedValues(in: metadata).contains { JSONPath.matchText($0) == text }
        case .contains(let path, let text):
            return path.matchedValues(in: metadata).contains { JSONPath.matchText($0).contains(text) }
        case .wholeEquals(let expected):
            return metadata == expected
        }
    }
}
