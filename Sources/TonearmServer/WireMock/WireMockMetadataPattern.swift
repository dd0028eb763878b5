import Tonearm
import TonearmCassettes

/// The `StringValuePattern` of `POST /__admin/mappings/remove-by-metadata`, applied to each mapping's
/// `metadata`: `{"matchesJsonPath": "$.path"}` (the path exists), `{"matchesJsonPath": {"expression":
/// "$.path", "equalTo"|"contains": text}}`, or `{"equalToJson": {...}}` (the metadata equals it).
/// Simple paths only (`$.a.b`, `$.a[0]`), as in mappings; anything else is refused with a 422.
struct WireMockMetadataPattern: Sendable {
    private enum Test: Sendable {
        case present(JSONPointer)
        case equals(JSONPointer, String)
        case contains(JSONPointer, String)
        case wholeEquals(JSONValue)
    }

    private let test: Test

    init(_ body: [UInt8]) throws(WireMockError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            throw .invalid("", "Error parsing JSON", detail: "POST /__admin/mappings/remove-by-metadata: \(error)")
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
            test = .present(try Self.pointer(expression, at: "/matchesJsonPath"))
        } else if let expression = path[member: "expression"]?.stringValue {
            let pointer = try Self.pointer(expression, at: "/matchesJsonPath/expression")
            if let value = path[member: "equalTo"]?.stringValue {
                test = .equals(pointer, value)
            } else if let value = path[member: "contains"]?.stringValue {
                test = .contains(pointer, value)
            } else {
                throw .invalid("/matchesJsonPath", "Unsupported metadata pattern", detail: "expected equalTo or contains beside expression")
            }
        } else {
            throw .invalid("/matchesJsonPath", "Unsupported metadata pattern", detail: "expected a JSONPath or {\"expression\", \"equalTo\"|\"contains\"}")
        }
    }

    private static func pointer(_ expression: String, at location: String) throws(WireMockError) -> JSONPointer {
        guard let pointer = JSONPathPointer.pointer(forSimplePath: expression) else {
            throw .invalid(location, "Unsupported metadata pattern", detail: "\(expression.debugDescription) is not a simple JSONPath ($.a.b or $.a[0])")
        }
        return pointer
    }

    /// Whether a mapping with `metadata` matches.
    func matches(_ metadata: JSONValue?) -> Bool {
        guard let metadata else { return false }
        switch test {
        case .present(let pointer):
            return metadata.value(at: pointer) != nil
        case .equals(let pointer, let text):
            return Self.text(metadata.value(at: pointer)) == text
        case .contains(let pointer, let text):
            return Self.text(metadata.value(at: pointer))?.contains(text) ?? false
        case .wholeEquals(let expected):
            return metadata == expected
        }
    }

    /// A scalar's text; arrays and objects as JSON, so `contains` finds an element in a list.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: text
        case nil, .null?: nil
        case let other?: other.canonicalText
        }
    }
}
