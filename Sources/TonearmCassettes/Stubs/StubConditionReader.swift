import Tonearm

/// Reads an entry's request conditions: `query` (parameter name → condition), `requestHeaders`
/// (header name → condition) and `requestBody` (JSON Pointer → condition).
///
/// A condition is a text (the value equals it), a number or boolean (a JSON body value whose
/// canonical text equals it), or an object with one of `equals`, `contains`, `matches` (a regular
/// expression), `present: true` or `absent: true`.
struct StubConditionReader {
    struct Conditions {
        var query: [QueryCondition] = []
        var headers: [HeaderCondition] = []
        var body: [BodyCondition] = []

        var isEmpty: Bool { query.isEmpty && headers.isEmpty && body.isEmpty }
    }

    static let operators = ["equals", "contains", "matches", "present", "absent"]

    let owner: String

    func read(_ entry: DocumentCursor) throws(CassetteError) -> Conditions {
        var conditions = Conditions()
        if let query = try entry.member("query") {
            for (name, value) in try query.members() {
                conditions.query.append(QueryCondition(name, try condition(value)))
            }
        }
        if let headers = try entry.member("requestHeaders") {
            for (name, value) in try headers.members() {
                conditions.headers.append(HeaderCondition(name, try condition(value)))
            }
        }
        if let body = try entry.member("requestBody") {
            for (text, value) in try body.members() {
                let pointer: JSONPointer
                do {
                    pointer = try JSONPointer(text)
                } catch {
                    throw value.error(expected: "a JSON Pointer such as \"/user/id\" as the name in \(owner)", found: "\(error)")
                }
                conditions.body.append(BodyCondition(pointer, try condition(value)))
            }
        }
        return conditions
    }

    private func condition(_ cursor: DocumentCursor) throws(CassetteError) -> TextCondition {
        switch cursor.node.value {
        case .string(let text):
            return .equals(text)
        case .number(let text):
            return .equals((try? JSONValue(parsing: Array(text.utf8)).canonicalText) ?? text)
        case .bool(let flag):
            return .equals(flag ? "true" : "false")
        case .object(let members):
            try cursor.refuseUnknownMembers(known: Self.operators, owner: "a condition of \(owner)")
            guard members.count == 1, let (name, value) = try cursor.members().first else {
                throw cursor.error(
                    expected: "exactly one of equals, contains, matches, present or absent in a condition of \(owner)",
                    found: "\(members.count) members")
            }
            switch name {
            case "equals": return .equals(try value.scalarText())
            case "contains": return .contains(try value.string())
            case "matches":
                let pattern = try value.string()
                try value.checkRegex(pattern, owner: owner)
                return .matches(pattern)
            case "present", "absent":
                guard try value.bool() else {
                    throw value.error(expected: "true (leave the condition out to allow anything)", found: "false")
                }
                return name == "present" ? .present : .absent
            default:
                throw value.error(expected: "a condition operator", found: name.debugDescription)
            }
        default:
            throw cursor.error(expected: "a condition: a text, or an object with equals, contains, matches, present or absent")
        }
    }
}
