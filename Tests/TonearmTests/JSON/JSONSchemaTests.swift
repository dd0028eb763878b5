import Testing

@testable import Tonearm

/// ``JSONSchema``: the keywords real mappings use, WireMock 3.13.2's own expectations
/// (MatchesJsonSchemaPatternTest), refusals naming the keyword and its place, and the bounds.
@Suite("JSON Schema")
struct JSONSchemaTests {
    private static func schema(_ text: String, _ version: JSONSchema.Version = .v202012) throws -> JSONSchema {
        try JSONSchema(try JSONValue(parsing: Array(text.utf8)), version: version)
    }

    private static func patterns(_ schema: JSONSchema) throws -> [LinearPattern] {
        try schema.patterns.map { try LinearPattern($0) }
    }

    private static func valid(_ schema: JSONSchema, _ text: String) throws -> Bool {
        schema.validates(text: text, patterns: try patterns(schema))
    }

    @Test("WireMock 3's string schema: a JSON string or a number written within the lengths passes (retried as its text), others do not")
    func stringSchema() throws {
        let schema = try Self.schema(#"{"type": "string", "minLength": 2, "maxLength": 4}"#)
        for text in [#""12""#, #""123""#, #""1234""#, "12", "123", "1234"] { #expect(try Self.valid(schema, text), "\(text)") }
        for text in ["", #""""#, #""1""#, #""12345""#, "1", "12345"] { #expect(try !Self.valid(schema, text), "\(text)") }
    }

    @Test("WireMock 3's has-ref schema (draft 4): items through #/definitions")
    func definitionsReference() throws {
        let schema = try Self.schema(#"""
            {"$schema": "http://json-schema.org/draft-04/schema", "required": ["things"],
             "properties": {"things": {"type": "array", "items": {"$ref": "#/definitions/single"}}},
             "definitions": {"single": {"type": "integer"}}}
            """#, .v4)
        for text in [#"{"things": []}"#, #"{"things": [1]}"#, #"{"things": [1, 2]}"#] { #expect(try Self.valid(schema, text), "\(text)") }
        for text in ["{}", #"{"not_things": null}"#, #"{"things": null}"#, #"{"things": {}}"#, #"{"things": 1}"#, #"{"things": ["1"]}"#] {
            #expect(try !Self.valid(schema, text), "\(text)")
        }
    }

    @Test("the keywords of object, array, number and string schemas, combinators and $defs")
    func keywords() throws {
        let schema = try Self.schema(#"""
            {"type": "object", "required": ["id", "kind"], "additionalProperties": false,
             "properties": {
               "id": {"type": "integer", "minimum": 1, "exclusiveMaximum": 100},
               "kind": {"enum": ["a", "b"]},
               "version": {"const": 2},
               "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
               "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true},
               "price": {"type": "number", "multipleOf": 0.5},
               "when": {"type": "string", "format": "date-time"},
               "owner": {"$ref": "#/$defs/owner"},
               "choice": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
               "either": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
               "both": {"allOf": [{"minLength": 1}, {"maxLength": 3}]},
               "never": {"not": {"type": "string"}}},
             "$defs": {"owner": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}
            """#)
        #expect(try Self.valid(schema, #"""
            {"id": 7, "kind": "a", "version": 2.0, "code": "ABC", "tags": ["x", "y"], "price": 2.5, "when": "2026-11-28T08:00:00Z",
             "owner": {"name": "Ada"}, "choice": 3, "either": null, "both": "ab", "never": 1}
            """#))
        let wrong = [
            #"{"kind": "a"}"#, #"{"id": 0, "kind": "a"}"#, #"{"id": 100, "kind": "a"}"#, #"{"id": 1.5, "kind": "a"}"#, #"{"id": 1, "kind": "c"}"#,
            #"{"id": 1, "kind": "a", "extra": 1}"#, #"{"id": 1, "kind": "a", "version": 3}"#, #"{"id": 1, "kind": "a", "code": "ABCD"}"#,
            #"{"id": 1, "kind": "a", "tags": []}"#, #"{"id": 1, "kind": "a", "tags": ["x", "x"]}"#, #"{"id": 1, "kind": "a", "price": 2.25}"#,
            #"{"id": 1, "kind": "a", "when": "2026-02-30T08:00:00Z"}"#, #"{"id": 1, "kind": "a", "owner": {}}"#,
            #"{"id": 1, "kind": "a", "choice": 1.5}"#, #"{"id": 1, "kind": "a", "either": 1}"#, #"{"id": 1, "kind": "a", "both": "abcd"}"#,
            #"{"id": 1, "kind": "a", "never": "s"}"#, "[]", "not json",
        ]
        for text in wrong { #expect(try !Self.valid(schema, text), "\(text)") }
    }

    @Test("draft 4's exclusiveMaximum is a boolean beside maximum; later drafts' a number; items lists are prefixItems in 2020-12")
    func versions() throws {
        // "type": a number that fails is tried again as its text, which a schema without a type lets through (as WireMock 3).
        let four = try Self.schema(#"{"type": "number", "maximum": 10, "exclusiveMaximum": true}"#, .v4)
        #expect(try Self.valid(four, "9") && !Self.valid(four, "10"))
        let seven = try Self.schema(#"{"type": "integer", "exclusiveMaximum": 10}"#, .v7)
        #expect(try Self.valid(seven, "9") && !Self.valid(seven, "10"))
        #expect(throws: JSONSchemaError.self) { try Self.schema(#"{"maximum": 10, "exclusiveMaximum": true}"#, .v7) }
        let tuple = try Self.schema(#"{"items": [{"type": "integer"}], "additionalItems": false}"#, .v7)
        #expect(try Self.valid(tuple, "[1]") && !Self.valid(tuple, "[1, 2]") && !Self.valid(tuple, #"["a"]"#))
        let prefix = try Self.schema(#"{"prefixItems": [{"type": "integer"}], "items": false}"#)
        #expect(try Self.valid(prefix, "[1]") && !Self.valid(prefix, "[1, 2]"))
        #expect(throws: JSONSchemaError.self) { try Self.schema(#"{"items": [{"type": "integer"}]}"#) }
    }

    @Test("a keyword Tonearm does not evaluate is refused, naming it and its JSON Pointer; so is a $ref leading nowhere or out of the document")
    func refusals() throws {
        let cases: [(String, String)] = [
            (#"{"properties": {"a": {"unevaluatedProperties": false}}}"#, "/properties/a/unevaluatedProperties"),
            (#"{"id": 1, "name": "alice"}"#, "/name"),
            (##"{"type": "array", "items": {"$ref": "#/does/not/exist"}}"##, "/items/$ref"),
            (#"{"$ref": "other.json#/a"}"#, "/$ref"),
            (#"{"format": "int64"}"#, "/format"),
            (#"{"pattern": "(a+)+(?=b)"}"#, "/pattern"),
            (#"{"type": "text"}"#, "/type"),
            ("3", ""),
        ]
        for (text, pointer) in cases {
            #expect(throws: JSONSchemaError.self, "\(text)") { try Self.schema(text) }
            do {
                _ = try Self.schema(text)
            } catch let error as JSONSchemaError {
                #expect(error.pointer == pointer, "\(text): \(error)")
            }
        }
    }

    @Test("bounds: a schema nested past the depth or with too many subschemas is refused; a $ref cycle on one value is refused at load")
    func loadBounds() throws {
        let deep = String(repeating: #"{"not": "#, count: JSONSchema.maximumDepth + 2) + "{}" + String(repeating: "}", count: JSONSchema.maximumDepth + 2)
        #expect(throws: JSONSchemaError.self) { try Self.schema(deep) }
        let wide = "{\"properties\": {" + (0...JSONSchema.maximumNodes).map { "\"p\($0)\": {}" }.joined(separator: ",") + "}}"
        #expect(throws: JSONSchemaError.self) { try Self.schema(wide) }
        for cyclic in [
            ##"{"$ref": "#"}"##, ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##,
            ##"{"anyOf": [{"not": {"$ref": "#"}}]}"##,
        ] {
            #expect(throws: JSONSchemaError.self, "\(cyclic)") { try Self.schema(cyclic) }
        }
    }

    @Test("bounds: a recursive schema reads a tree through its properties, and a value nested past the depth does not match; a costly evaluation stops at its visit budget")
    func evaluationBounds() throws {
        let tree = try Self.schema(#"""
            {"type": "object", "required": ["name"],
             "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}}
            """#)
        #expect(try Self.valid(tree, #"{"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}"#))
        #expect(try !Self.valid(tree, #"{"name": "a", "children": [{"children": []}]}"#))
        var deepValue = #"{"name": "leaf"}"#
        for _ in 0..<(JSONSchema.maximumDepth / 2) { deepValue = #"{"name": "n", "children": [\#(deepValue)]}"# }
        #expect(try !Self.valid(tree, deepValue), "past the depth bound: no match rather than unbounded recursion")

        // 2^18 strings in nested lists, each list tried against every alternative: past the visit budget.
        let costly = try Self.schema(#"""
            {"$defs": {"x": {"anyOf": [{"type": "string"}, {"type": "string"}, {"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/x"}}]}},
             "$ref": "#/$defs/x"}
            """#)
        var nested = #""s""#
        for _ in 0..<18 { nested = "[\(nested), \(nested)]" }
        #expect(try !Self.valid(costly, nested), "valid, but past the budget: no match rather than unbounded work")
        #expect(try Self.valid(costly, #"[["s"], "t"]"#))
    }
}
