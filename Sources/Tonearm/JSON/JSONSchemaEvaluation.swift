import Foundation

/// One evaluation of a value against a ``JSONSchema``'s nodes, within the schema's bounds: past
/// ``JSONSchema/maximumVisits`` subschemas or ``JSONSchema/maximumDepth`` levels it is exhausted, and
/// the value does not match.
struct JSONSchemaEvaluation {
    let nodes: [JSONSchemaNode]
    /// The schema's patterns, compiled, by index.
    let patterns: [LinearPattern]
    private var visits = 0
    private(set) var exhausted = false

    init(nodes: [JSONSchemaNode], patterns: [LinearPattern]) {
        self.nodes = nodes
        self.patterns = patterns
    }

    /// Whether pattern `index` is found in `text`.
    private func pattern(_ index: Int, _ text: String) -> Bool {
        index < patterns.count && patterns[index].matches(text)
    }

    /// Whether `value` passes node `index`.
    mutating func valid(_ value: JSONValue, node index: Int, depth: Int) -> Bool {
        guard !exhausted else { return false }
        visits += 1
        guard visits <= JSONSchema.maximumVisits, depth <= JSONSchema.maximumDepth else {
            exhausted = true
            return false
        }
        let node = nodes[index]
        if let verdict = node.verdict { return verdict }
        let next = depth + 1
        if let types = node.types, !Self.hasType(value, types), !(node.nullable && value == .null) { return false }
        if let values = node.enumValues, !values.contains(where: { Self.equal($0, value) }) { return false }
        if let constant = node.constValue, !Self.equal(constant, value) { return false }
        if let reference = node.reference, !valid(value, node: reference, depth: next) { return false }
        for child in node.allOf where !valid(value, node: child, depth: next) { return false }
        if !node.anyOf.isEmpty, !node.anyOf.contains(where: { valid(value, node: $0, depth: next) }) { return false }
        if !node.oneOf.isEmpty {
            var passing = 0
            for child in node.oneOf where valid(value, node: child, depth: next) { passing += 1 }
            if passing != 1 { return false }
        }
        if let not = node.not {
            let passes = valid(value, node: not, depth: next)
            if exhausted || passes { return false }
        }
        if let conditional = node.ifThenElse {
            let holds = valid(value, node: conditional.condition, depth: next)
            if exhausted { return false }
            if let branch = holds ? conditional.then : conditional.otherwise, !valid(value, node: branch, depth: next) { return false }
        }
        switch value {
        case .number(let text):
            return numberValid(Double(text) ?? .nan, node)
        case .string(let text):
            return stringValid(text, node)
        case .array(let elements):
            return arrayValid(elements, node, depth: next)
        case .object(let members):
            return objectValid(members, node, depth: next)
        case .null, .bool:
            return true
        }
    }

    private func numberValid(_ number: Double, _ node: JSONSchemaNode) -> Bool {
        if let minimum = node.minimum, !(number >= minimum) { return false }
        if let maximum = node.maximum, !(number <= maximum) { return false }
        if let bound = node.exclusiveMinimum, !(number > bound) { return false }
        if let bound = node.exclusiveMaximum, !(number < bound) { return false }
        if let factor = node.multipleOf {
            let quotient = number / factor
            guard quotient.isFinite, abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient)) else { return false }
        }
        return true
    }

    private func stringValid(_ text: String, _ node: JSONSchemaNode) -> Bool {
        if node.minLength != nil || node.maxLength != nil {
            let length = text.unicodeScalars.count
            if let minimum = node.minLength, length < minimum { return false }
            if let maximum = node.maxLength, length > maximum { return false }
        }
        if let index = node.pattern, !pattern(index, text) { return false }
        if let format = node.format, !format.accepts(text) { return false }
        return true
    }

    private mutating func arrayValid(_ elements: [JSONValue], _ node: JSONSchemaNode, depth: Int) -> Bool {
        if let minimum = node.minItems, elements.count < minimum { return false }
        if let maximum = node.maxItems, elements.count > maximum { return false }
        for (offset, element) in elements.enumerated() {
            let child = offset < node.prefixItems.count ? node.prefixItems[offset] : node.items
            if let child, !valid(element, node: child, depth: depth) { return false }
        }
        if let contains = node.contains, !elements.contains(where: { valid($0, node: contains, depth: depth) }) { return false }
        if node.uniqueItems {
            for (offset, element) in elements.enumerated() {
                for other in elements[(offset + 1)...] {
                    visits += 1
                    if visits > JSONSchema.maximumVisits { exhausted = true }
                    if exhausted || Self.equal(element, other) { return false }
                }
            }
        }
        return true
    }

    private mutating func objectValid(_ members: [JSONMember], _ node: JSONSchemaNode, depth: Int) -> Bool {
        if let minimum = node.minProperties, members.count < minimum { return false }
        if let maximum = node.maxProperties, members.count > maximum { return false }
        for name in node.required where !members.contains(where: { $0.key == name }) { return false }
        for (name, required) in node.dependentRequired where members.contains(where: { $0.key == name }) {
            for other in required where !members.contains(where: { $0.key == other }) { return false }
        }
        for member in members {
            if let names = node.propertyNames, !valid(.string(member.key), node: names, depth: depth) { return false }
            var evaluated = false
            for property in node.properties where property.name == member.key {
                evaluated = true
                if !valid(member.value, node: property.node, depth: depth) { return false }
            }
            for property in node.patternProperties where pattern(property.pattern, member.key) {
                evaluated = true
                if !valid(member.value, node: property.node, depth: depth) { return false }
            }
            if !evaluated, let additional = node.additionalProperties, !valid(member.value, node: additional, depth: depth) { return false }
        }
        return true
    }

    /// Whether `value` is of one of `types`: an integer is a number without a fraction (`1.0` too).
    static func hasType(_ value: JSONValue, _ types: Set<String>) -> Bool {
        switch value {
        case .null: return types.contains("null")
        case .bool: return types.contains("boolean")
        case .string: return types.contains("string")
        case .array: return types.contains("array")
        case .object: return types.contains("object")
        case .number(let text):
            if types.contains("number") { return true }
            guard types.contains("integer"), let number = Double(text) else { return false }
            return number.isFinite && number.rounded() == number
        }
    }

    /// JSON Schema's equality: numbers by value (`1` equals `1.0`), members in any order.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            return a == b || Double(a).map { $0 == Double(b) } ?? false
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in b.contains { $0.key == member.key && equal($0.value, member.value) } }
        default:
            return lhs == rhs
        }
    }
}

/// The `format`s a ``JSONSchema`` checks (WireMock's validator checks these by default too).
enum JSONSchemaFormat: String, CaseIterable, Sendable {
    case dateTime = "date-time"
    case date
    case time
    case email
    case uuid
    case ipv4
    case ipv6
    case uri

    /// Whether `text` is written in the format.
    func accepts(_ text: String) -> Bool {
        switch self {
        case .dateTime:
            guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
            return Self.isDate(text[..<separator]) && Self.isTime(text[text.index(after: separator)...])
        case .date: return Self.isDate(Substring(text))
        case .time: return Self.isTime(Substring(text))
        case .email:
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(where: \.isWhitespace)
        case .uuid:
            return text.count == 36 && UUID(uuidString: text) != nil
        case .ipv4:
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4 && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (Int(part) ?? 256) <= 255 && (part.count == 1 || part.first != "0")
            }
        case .ipv6:
            var address = in6_addr()
            return text.withCString { inet_pton(AF_INET6, $0, &address) } == 1
        case .uri:
            guard let url = URL(string: text), let scheme = url.scheme else { return false }
            return !scheme.isEmpty
        }
    }

    /// `YYYY-MM-DD`, a real day of the month.
    private static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `HH:MM:SS[.fraction]` and `Z` or an offset, as RFC 3339 writes a time.
    private static func isTime(_ text: Substring) -> Bool {
        var rest = text
        let offsetStart = rest.lastIndex(where: { $0 == "Z" || $0 == "z" || $0 == "+" || $0 == "-" })
        guard let offsetStart else { return false }
        let offset = rest[offsetStart...]
        rest = rest[..<offsetStart]
        if offset.count != 1 {
            let parts = offset.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
                let hours = Int(parts[0]), let minutes = Int(parts[1]), hours <= 23, minutes <= 59
            else { return false }
        }
        if let dot = rest.firstIndex(of: ".") {
            let fraction = rest[rest.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return false }
            rest = rest[..<dot]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2])
        else { return false }
        return hours <= 23 && minutes <= 59 && seconds <= 60
    }
}

extension Character {
    /// `0`…`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
