/// One subschema of a ``JSONSchema``, its keywords read; other subschemas are indices into the
/// schema's node list.
struct JSONSchemaNode: Sendable {
    /// A boolean schema's verdict (`true` passes everything, `false` nothing); `nil` for an object.
    var verdict: Bool?
    /// The JSON types allowed (`integer` beside `number`), or `nil` for any.
    var types: Set<String>?
    /// OpenAPI's `nullable: true`: `null` passes `type` too (WireMock's validator reads it).
    var nullable = false
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var properties: [(name: String, node: Int)] = []
    var patternProperties: [(pattern: Int, node: Int)] = []
    var additionalProperties: Int?
    var required: [String] = []
    var propertyNames: Int?
    var minProperties: Int?
    var maxProperties: Int?
    var dependentRequired: [(name: String, required: [String])] = []
    /// Schemas for the first items, by position (`prefixItems`, or a list of `items` before 2020-12).
    var prefixItems: [Int] = []
    /// The schema of the items after those.
    var items: Int?
    var contains: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?
    var minLength: Int?
    var maxLength: Int?
    var pattern: Int?
    var format: JSONSchemaFormat?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    var ifThenElse: (condition: Int, then: Int?, otherwise: Int?)?
    /// The node a `$ref` leads to, once resolved.
    var reference: Int?

    /// The subschemas evaluated on the same value as this one: a cycle through them never ends.
    var sameValueChildren: [Int] {
        var children = allOf + anyOf + oneOf
        if let not { children.append(not) }
        if let reference { children.append(reference) }
        if let ifThenElse { children += [ifThenElse.condition] + [ifThenElse.then, ifThenElse.otherwise].compactMap { $0 } }
        return children
    }
}

/// Reads a schema's subschemas into ``JSONSchemaNode``s, refusing what Tonearm does not evaluate.
struct JSONSchemaReader {
    let root: JSONValue
    let version: JSONSchema.Version
    private(set) var nodes: [JSONSchemaNode] = []
    private(set) var patterns: [String] = []
    /// Each subschema read, by its JSON Pointer, for `$ref`.
    private var nodeAtPointer: [String: Int] = [:]
    /// Each node's place in the schema, by index.
    private var nodeTokens: [[String]] = []
    /// The `$ref`s to resolve once every subschema is read: the node, the reference, where it is.
    private var references: [(node: Int, reference: String, pointer: String)] = []

    /// Keywords that assert nothing: read and kept out of the way.
    private static let annotations: Set<String> = [
        "$schema", "$id", "id", "$comment", "title", "description", "default", "examples", "example", "readOnly", "writeOnly",
        "deprecated", "contentMediaType", "contentEncoding", "discriminator", "xml", "externalDocs",
    ]

    init(root: JSONValue, version: JSONSchema.Version) {
        self.root = root
        self.version = version
    }

    static func pointer(_ tokens: [String]) -> String {
        tokens.isEmpty ? "" : "/" + tokens.map { JSONPointer.escape($0) }.joined(separator: "/")
    }

    /// Reads `value`, the subschema at `tokens`, and its subschemas; its index.
    mutating func node(_ value: JSONValue, pointer tokens: [String], depth: Int) throws(JSONSchemaError) -> Int {
        let here = Self.pointer(tokens)
        guard depth <= JSONSchema.maximumDepth else {
            throw JSONSchemaError(pointer: here, message: "the schema nests deeper than \(JSONSchema.maximumDepth) subschemas")
        }
        guard nodes.count < JSONSchema.maximumNodes else {
            throw JSONSchemaError(pointer: here, message: "the schema has more than \(JSONSchema.maximumNodes) subschemas")
        }
        let index = nodes.count
        nodes.append(JSONSchemaNode())
        nodeTokens.append(tokens)
        nodeAtPointer[here] = index
        var node = JSONSchemaNode()
        switch value {
        case .bool(let verdict):
            node.verdict = verdict
        case .object(let members):
            for member in members {
                try read(member.key, member.value, into: &node, index: index, pointer: tokens + [member.key], depth: depth)
            }
        default:
            throw JSONSchemaError(pointer: here, message: "a schema is an object or a boolean, not \(Self.kind(value))")
        }
        nodes[index] = node
        return index
    }

    private mutating func read(
        _ keyword: String, _ value: JSONValue, into node: inout JSONSchemaNode, index: Int, pointer tokens: [String], depth: Int
    ) throws(JSONSchemaError) {
        let here = Self.pointer(tokens)
        func subschema(_ value: JSONValue, _ more: [String] = []) throws(JSONSchemaError) -> Int {
            try self.node(value, pointer: tokens + more, depth: depth + 1)
        }
        func list(_ value: JSONValue) throws(JSONSchemaError) -> [Int] {
            guard case .array(let elements) = value, !elements.isEmpty else {
                throw JSONSchemaError(pointer: here, message: "\(keyword) must be a non-empty list of schemas")
            }
            var indices: [Int] = []
            for (offset, element) in elements.enumerated() { indices.append(try subschema(element, [String(offset)])) }
            return indices
        }
        func count() throws(JSONSchemaError) -> Int {
            guard case .number(let text) = value, let number = Double(text), number >= 0, number.rounded() == number, number < 1e15 else {
                throw JSONSchemaError(pointer: here, message: "\(keyword) must be a non-negative integer")
            }
            return Int(number)
        }
        func number() throws(JSONSchemaError) -> Double {
            guard case .number(let text) = value, let number = Double(text), number.isFinite else {
                throw JSONSchemaError(pointer: here, message: "\(keyword) must be a number")
            }
            return number
        }
        func strings() throws(JSONSchemaError) -> [String] {
            guard case .array(let elements) = value else { throw JSONSchemaError(pointer: here, message: "\(keyword) must be a list of strings") }
            var names: [String] = []
            for element in elements {
                guard case .string(let name) = element else { throw JSONSchemaError(pointer: here, message: "\(keyword) must be a list of strings") }
                names.append(name)
            }
            return names
        }
        func schemaMap() throws(JSONSchemaError) -> [(String, Int)] {
            guard case .object(let members) = value else { throw JSONSchemaError(pointer: here, message: "\(keyword) must be an object of schemas") }
            var read: [(String, Int)] = []
            for member in members { read.append((member.key, try subschema(member.value, [member.key]))) }
            return read
        }

        switch keyword {
        case _ where Self.annotations.contains(keyword):
            return
        case "definitions", "$defs":
            _ = try schemaMap()
        case "type":
            let names: [String]
            if case .string(let name) = value { names = [name] } else { names = try strings() }
            let known: Set<String> = ["null", "boolean", "object", "array", "number", "integer", "string"]
            guard let unknown = names.first(where: { !known.contains($0) }) else {
                node.types = Set(names)
                return
            }
            throw JSONSchemaError(pointer: here, message: "unknown type \(unknown.debugDescription)")
        case "nullable":
            guard case .bool(let flag) = value else { throw JSONSchemaError(pointer: here, message: "nullable must be a boolean") }
            node.nullable = flag
        case "enum":
            guard case .array(let values) = value else { throw JSONSchemaError(pointer: here, message: "enum must be a list") }
            node.enumValues = values
        case "const":
            node.constValue = value
        case "properties":
            node.properties = try schemaMap().map { (name: $0.0, node: $0.1) }
        case "patternProperties":
            for (pattern, child) in try schemaMap() {
                node.patternProperties.append((try compilePattern(pattern, at: here), child))
            }
        case "additionalProperties":
            node.additionalProperties = try subschema(value)
        case "required":
            node.required = try strings()
        case "propertyNames":
            node.propertyNames = try subschema(value)
        case "minProperties":
            node.minProperties = try count()
        case "maxProperties":
            node.maxProperties = try count()
        case "dependentRequired":
            guard case .object(let members) = value else { throw JSONSchemaError(pointer: here, message: "dependentRequired must be an object of lists") }
            for member in members {
                guard case .array(let elements) = member.value else { throw JSONSchemaError(pointer: here, message: "dependentRequired must be an object of lists") }
                var names: [String] = []
                for element in elements {
                    guard case .string(let name) = element else { throw JSONSchemaError(pointer: here, message: "dependentRequired must be an object of lists of names") }
                    names.append(name)
                }
                node.dependentRequired.append((member.key, names))
            }
        case "items":
            if case .array = value {
                guard version != .v202012 else {
                    throw JSONSchemaError(pointer: here, message: "items is one schema in draft 2020-12 (a list is prefixItems)")
                }
                node.prefixItems = try list(value)
            } else {
                node.items = try subschema(value)
            }
        case "prefixItems":
            guard version == .v202012 else { throw JSONSchemaError(pointer: here, message: "prefixItems is a keyword of draft 2020-12, not \(version)") }
            node.prefixItems = try list(value)
        case "additionalItems":
            guard version != .v202012 else { throw JSONSchemaError(pointer: here, message: "additionalItems is not a keyword of draft 2020-12 (items follows prefixItems)") }
            // Read; applied after a list of `items` only, as the drafts say (beside one schema it means nothing).
            let additional = try subschema(value)
            if case .array? = root.value(at: JSONPointer(tokens: Array(tokens.dropLast()) + ["items"])) { node.items = additional }
        case "contains":
            node.contains = try subschema(value)
        case "minItems":
            node.minItems = try count()
        case "maxItems":
            node.maxItems = try count()
        case "uniqueItems":
            guard case .bool(let flag) = value else { throw JSONSchemaError(pointer: here, message: "uniqueItems must be a boolean") }
            node.uniqueItems = flag
        case "minimum":
            node.minimum = try number()
        case "maximum":
            node.maximum = try number()
        case "exclusiveMinimum", "exclusiveMaximum":
            if version == .v4 {
                // Draft 4: a boolean making `minimum`/`maximum` exclusive, read once the node is complete.
                guard case .bool = value else { throw JSONSchemaError(pointer: here, message: "\(keyword) is a boolean in draft 4") }
                return
            }
            let bound = try number()
            if keyword == "exclusiveMinimum" { node.exclusiveMinimum = bound } else { node.exclusiveMaximum = bound }
        case "multipleOf":
            let factor = try number()
            guard factor > 0 else { throw JSONSchemaError(pointer: here, message: "multipleOf must be greater than 0") }
            node.multipleOf = factor
        case "minLength":
            node.minLength = try count()
        case "maxLength":
            node.maxLength = try count()
        case "pattern":
            guard case .string(let pattern) = value else { throw JSONSchemaError(pointer: here, message: "pattern must be a string") }
            node.pattern = try compilePattern(pattern, at: here)
        case "format":
            guard case .string(let name) = value else { throw JSONSchemaError(pointer: here, message: "format must be a string") }
            guard let format = JSONSchemaFormat(rawValue: name) else {
                throw JSONSchemaError(
                    pointer: here,
                    message: "format \(name.debugDescription) is not evaluated (Tonearm checks \(JSONSchemaFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            node.format = format
        case "allOf":
            node.allOf = try list(value)
        case "anyOf":
            node.anyOf = try list(value)
        case "oneOf":
            node.oneOf = try list(value)
        case "not":
            node.not = try subschema(value)
        case "if":
            let condition = try subschema(value)
            node.ifThenElse = (condition, node.ifThenElse?.then, node.ifThenElse?.otherwise)
        case "then", "else":
            let child = try subschema(value)
            let current = node.ifThenElse ?? (-1, nil, nil)
            node.ifThenElse = keyword == "then" ? (current.condition, child, current.otherwise) : (current.condition, current.then, child)
        case "$ref":
            guard case .string(let reference) = value else { throw JSONSchemaError(pointer: here, message: "$ref must be a string") }
            references.append((index, reference, here))
        default:
            throw JSONSchemaError(pointer: here, message: "the keyword \(keyword.debugDescription) is not evaluated by Tonearm; the schema was refused rather than read without it")
        }
    }

    /// Checks `pattern` can run in linear time and numbers it.
    private mutating func compilePattern(_ pattern: String, at pointer: String) throws(JSONSchemaError) -> Int {
        do {
            try LinearPattern.check(pattern)
        } catch {
            throw JSONSchemaError(pointer: pointer, message: "pattern \(pattern.debugDescription): \(error.message)")
        }
        if let known = patterns.firstIndex(of: pattern) { return known }
        patterns.append(pattern)
        return patterns.count - 1
    }

    /// Resolves every `$ref` to the subschema it names, draft 4's exclusive bounds, and `if` without
    /// `then`/`else`; refuses a reference that leads nowhere and a cycle evaluated on one value.
    mutating func resolveReferences() throws(JSONSchemaError) {
        for (node, reference, pointer) in references {
            guard reference.hasPrefix("#") else {
                throw JSONSchemaError(pointer: pointer, message: "$ref \(reference.debugDescription) leaves the document: only references inside the schema (#, #/definitions/a, #/$defs/a) are read")
            }
            let fragment = String(reference.dropFirst()).removingPercentEncoding ?? String(reference.dropFirst())
            guard fragment.isEmpty || fragment.hasPrefix("/") else {
                throw JSONSchemaError(pointer: pointer, message: "$ref \(reference.debugDescription) names an anchor; only JSON Pointers are read")
            }
            let target: JSONPointer
            do {
                target = try JSONPointer(fragment)
            } catch {
                throw JSONSchemaError(pointer: pointer, message: "$ref \(reference.debugDescription): \(error)")
            }
            guard let resolved = nodeAtPointer[Self.pointer(target.tokens)] else {
                throw JSONSchemaError(pointer: pointer, message: "$ref \(reference.debugDescription) does not lead to a schema in the document")
            }
            nodes[node].reference = resolved
        }
        if version == .v4 {
            for (index, tokens) in nodeTokens.enumerated() {
                guard case .object(let members)? = root.value(at: JSONPointer(tokens: tokens)) else { continue }
                for member in members where member.value == .bool(true) {
                    if member.key == "exclusiveMinimum" { nodes[index].exclusiveMinimum = nodes[index].minimum; nodes[index].minimum = nil }
                    if member.key == "exclusiveMaximum" { nodes[index].exclusiveMaximum = nodes[index].maximum; nodes[index].maximum = nil }
                }
            }
        }
        for index in nodes.indices where nodes[index].ifThenElse?.condition == -1 {
            nodes[index].ifThenElse = nil  // `then`/`else` without `if` mean nothing, as the drafts say
        }
        try refuseSameValueCycles()
    }

    /// A cycle through `$ref`, `allOf`, `anyOf`, `oneOf`, `not` or `if` evaluates the same value again
    /// and again: refused (a cycle through `properties` or `items` reads ever deeper into the value,
    /// and ends with it).
    private func refuseSameValueCycles() throws(JSONSchemaError) {
        var state = [UInt8](repeating: 0, count: nodes.count)  // 0 new, 1 on the path, 2 done
        let pointers = Dictionary(nodeAtPointer.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for start in nodes.indices where state[start] == 0 {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let children = nodes[top.node].sameValueChildren
                if top.next < children.count {
                    stack[stack.count - 1].next += 1
                    let child = children[top.next]
                    if state[child] == 1 {
                        throw JSONSchemaError(
                            pointer: pointers[top.node] ?? "",
                            message: "this subschema leads back to itself (through $ref, allOf, anyOf, oneOf, not or if) without reading into the value: its evaluation would never end")
                    }
                    if state[child] == 0 {
                        state[child] = 1
                        stack.append((child, 0))
                    }
                } else {
                    state[top.node] = 2
                    stack.removeLast()
                }
            }
        }
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
