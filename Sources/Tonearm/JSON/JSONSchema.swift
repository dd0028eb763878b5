import Foundation

/// A JSON Schema (drafts 4, 6, 7, 2019-09 and 2020-12: WireMock 3's `matchesJsonSchema` with its
/// `schemaVersion`), read once and checked whole: every keyword it has is one Tonearm evaluates, or an
/// annotation that asserts nothing (`title`, `description`, `$comment`, `default`, `examples`, …).
/// A keyword outside that set is refused, naming it and its place (a JSON Pointer into the schema),
/// rather than ignored: a schema that silently asserts less than it says lets through what the stub's
/// author meant to refuse.
///
/// Evaluated keywords: `type` (one or a list; `nullable` as OpenAPI writes it), `enum`, `const`,
/// `properties`, `patternProperties`, `additionalProperties`, `required`, `propertyNames`,
/// `minProperties`, `maxProperties`, `dependentRequired`, `items` (one schema, or a list before
/// 2020-12), `prefixItems` (2020-12), `additionalItems`, `minItems`, `maxItems`, `uniqueItems`,
/// `contains`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (draft 4's booleans, later
/// drafts' numbers), `multipleOf`, `minLength`, `maxLength` (in Unicode scalars), `pattern` (the
/// project's linear-time patterns, found anywhere in the string as ECMA-262 does), `format` (`date-time`,
/// `date`, `time`, `email`, `uuid`, `ipv4`, `ipv6`, `uri`; another format is refused), `allOf`, `anyOf`,
/// `oneOf`, `not`, `if`/`then`/`else`, and `$ref` to a place in the same document (`#`,
/// `#/definitions/a`, `#/$defs/a`, any JSON Pointer).
///
/// Bounds: a schema of at most ``maximumNodes`` subschemas nested at most ``maximumDepth`` deep; a
/// `$ref` chain that leads only to itself is refused; one evaluation visits at most
/// ``maximumVisits`` subschemas and recurses at most ``maximumDepth`` deep (a `$ref` cycle
/// evaluated on the same value included): past either, the value does not match.
public struct JSONSchema: Sendable, Hashable {
    /// The draft the schema is read as. A struct with static members, so a later draft is not a
    /// breaking change.
    public struct Version: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// WireMock's name of the draft: `V4`, `V6`, `V7`, `V201909` or `V202012`.
        public let rawValue: String

        /// The draft WireMock names `rawValue`; `nil` for another name.
        public init?(rawValue: String) {
            guard ["V4", "V6", "V7", "V201909", "V202012"].contains(rawValue) else { return nil }
            self.rawValue = rawValue
        }

        private init(known: String) { rawValue = known }

        /// Draft 4 (`exclusiveMinimum`/`exclusiveMaximum` are booleans beside `minimum`/`maximum`).
        public static let v4 = Version(known: "V4")
        /// Draft 6.
        public static let v6 = Version(known: "V6")
        /// Draft 7.
        public static let v7 = Version(known: "V7")
        /// Draft 2019-09.
        public static let v201909 = Version(known: "V201909")
        /// Draft 2020-12, WireMock 3's default (`items` one schema, lists in `prefixItems`).
        public static let v202012 = Version(known: "V202012")

        /// The name.
        public var description: String { rawValue }
    }

    /// The most subschemas a schema may have.
    public static let maximumNodes = 10_000
    /// The deepest a schema may nest, and an evaluation recurse.
    public static let maximumDepth = 128
    /// The most subschemas one evaluation visits.
    public static let maximumVisits = 200_000

    /// The schema as written.
    public let json: JSONValue
    /// The draft it is read as.
    public let version: Version
    /// Its subschemas, the root first; references are indices into this list.
    let nodes: [JSONSchemaNode]
    /// The `pattern` and `patternProperties` regular expressions, by the index nodes name them with.
    package let patterns: [String]

    /// Reads `json` as a schema of `version`.
    ///
    /// - Throws: ``JSONSchemaError`` naming the keyword and its place when the schema uses something
    ///   Tonearm does not evaluate, a keyword's value is malformed, a `$ref` leads nowhere, or the schema
    ///   is past the bounds above.
    public init(_ json: JSONValue, version: Version = .v202012) throws(JSONSchemaError) {
        var reader = JSONSchemaReader(root: json, version: version)
        _ = try reader.node(json, pointer: [], depth: 0)
        try reader.resolveReferences()
        self.json = json
        self.version = version
        nodes = reader.nodes
        patterns = reader.patterns
    }

    /// Two schemas are equal when written alike and read as the same draft.
    public static func == (lhs: JSONSchema, rhs: JSONSchema) -> Bool {
        lhs.json == rhs.json && lhs.version == rhs.version
    }

    /// Hashes the schema as written and its draft, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(json)
        hasher.combine(version)
    }

    /// Whether `text` (a body, a header value) is valid, as WireMock reads it: as JSON when it parses,
    /// else as a string; a number, boolean or `null` that is not valid is tried again as the string it
    /// was written as (so `12` passes `{"type": "string"}`). `patterns` are the schema's ``patterns``
    /// compiled, in their order.
    package func validates(text: String, patterns: [LinearPattern]) -> Bool {
        let value = (try? JSONValue(parsing: Array(text.utf8))) ?? .string(text)
        if validates(value, patterns: patterns) { return true }
        switch value {
        case .number, .bool, .null: return validates(.string(text), patterns: patterns)
        default: return false
        }
    }

    /// Whether `value` is valid; `patterns` as for `validates(text:patterns:)`.
    package func validates(_ value: JSONValue, patterns: [LinearPattern]) -> Bool {
        var evaluation = JSONSchemaEvaluation(nodes: nodes, patterns: patterns)
        return evaluation.valid(value, node: 0, depth: 0) && !evaluation.exhausted
    }
}

/// A schema that cannot be used: what is wrong and where, `pointer` a JSON Pointer into the schema.
public struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the schema (`/properties/name/format`; empty for the root).
    public var pointer: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `at /pointer: message`.
    public var description: String { "at \(pointer.isEmpty ? "the schema's root" : pointer): \(message)" }
}
