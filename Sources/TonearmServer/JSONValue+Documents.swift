import Tonearm

/// Reading and writing the server's API documents (the control API's, the inspector's, WireMock's admin
/// API's) with the core's one JSON model (`JSONValue`): request bodies are parsed with
/// `JSONValue(parsing:)`, answers are built as values and written as RFC 8785 text (compact, members
/// sorted), which every client reads.
extension JSONValue {
    /// The member named `key` of an object (the first when repeated), or `nil`.
    package subscript(member key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string value, or `nil`.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// An integer value (`5`, `5.0`), or `nil`.
    package var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// An object built from `members` in order, leaving out `nil` values.
    package static func object(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { key, value in value.map { JSONMember(key: key, value: $0) } })
    }

    /// An integer.
    package static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A finite number as its ECMAScript text (`0.25`, `1e-7`).
    package static func double(_ value: Double) -> JSONValue {
        .number(ECMAScriptNumber.format(value.isFinite ? value : 0))
    }

    /// This object with `key` set to `value` (replacing the member, or added at the end).
    package func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
        return .object(members)
    }

    /// This object without `key`.
    package func removing(_ key: String) -> JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }

    /// The value as compact JSON bytes.
    package var bytes: [UInt8] { Array(canonicalText.utf8) }
}

extension Response {
    /// An API answer (the control API's, WireMock's admin API's): `status` with `json` as an
    /// `application/json` body.
    package static func adminJSON(_ json: JSONValue, status: Int = 200) -> Response {
        Response(status: status, headers: [HeaderField("Content-Type", "application/json")], body: json.bytes)
    }
}
