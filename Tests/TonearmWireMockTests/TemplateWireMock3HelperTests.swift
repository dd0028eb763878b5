import Testing
import Tonearm
import TonearmReplay
import TonearmWireMock

/// WireMock 3's JSON and list template helpers, each case's template and expected text taken from
/// WireMock 3.13.2's own tests (named beside each group; no 3.x jar is reachable here to compare with).
/// Rendered without escaping, as WireMock 3 renders (`--wiremock-version 3`, the default).
@Suite("WireMock 3 template helpers")
struct TemplateWireMock3HelperTests {
    private func render(_ template: String, body: String = "", escaping: Bool = false) throws -> String {
        let request = Request(method: "POST", url: "http://localhost/things", headers: [HeaderField("Content-Type", "application/json")], body: Array(body.utf8))
        return try ResponseTemplate(parsing: template).render(TemplateRequestModel(request, baseURL: "http://localhost"), escaping: escaping)
    }

    private static let compact = #"{"foo":true,"bar":{"baz":false}}"#
    private static let pretty = "{\n  \"foo\" : true,\n  \"bar\" : {\n    \"baz\" : false\n  }\n}"

    @Test("formatJson (FormatJsonHelperTest): pretty by default and on request, compact, from a variable; WireMock's error texts")
    func formatJson() throws {
        #expect(try render("{{#formatJson}} \(Self.compact) {{/formatJson}}") == Self.pretty)
        #expect(try render("{{#formatJson format='pretty'}} \(Self.compact) {{/formatJson}}") == Self.pretty)
        #expect(try render("{{#formatJson format='compact'}} \(Self.pretty) {{/formatJson}}") == Self.compact)
        #expect(try render("{{#assign 'someJson'}} \(Self.pretty) {{/assign}}{{formatJson someJson format='compact'}}") == Self.compact)
        #expect(try render("{{#formatJson format='foo'}} \(Self.compact) {{/formatJson}}") == "[ERROR: formatJson: format [foo] should be one of [pretty, compact]]")
        #expect(try render(#"{{#formatJson format="compact"}} {"foo":true,} {{/formatJson}}"#)
            == "[ERROR: There was an error parsing the json. Please make sure the json is valid]")
        let noContent = "[ERROR: formatJson should take a block of JSON to format or a single parameter of type String]"
        #expect(try render("{{#formatJson}}{{/formatJson}}") == noContent)
        #expect(try render("{{formatJson}}") == noContent)
        #expect(try render("{{formatJson nullVariable}}") == noContent)
        #expect(try render("{{#formatJson}}                  {{/formatJson}}") == noContent)
        #expect(try render("{{#formatJson format=1}} \(Self.pretty) {{/formatJson}}")
            == "[ERROR: formatJson: format [1] of type [java.lang.Integer should be a Format or a String and one of [pretty, compact]]]")
    }

    @Test("jsonMerge (JsonMergeHelperTest): members added and replaced in order, objects merged deep, the other object as a block, removeNulls, errors")
    func jsonMerge() throws {
        #expect(try render(#"{{ jsonMerge '{"id":456,"name":"bob"}' '{"roles":["admin","user"],"dob":"2024-06-18"}' }}"#)
            == #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#)
        let cases: [(base: String, other: String, merged: String)] = [
            (#"{ "id": 456, "name": "bob", "roles": [ "viewer" ] }"#, #"{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }"#,
             #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#),
            ("{}", #"{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }"#, #"{"roles":["admin","user"],"dob":"2024-06-18"}"#),
            (#"{ "id": 456, "name": "bob" }"#, "{}", #"{"id":456,"name":"bob"}"#),
            (#"{ "id": 456, "name": "bob", "data": { "field": "value" } }"#, #"{ "data": [ 123, true ] }"#, #"{"id":456,"name":"bob","data":[123,true]}"#),
            (#"{ "a": { "b": 1, "c": 2 } }"#, #"{ "a": { "c": 3, "d": 4 } }"#, #"{"a":{"b":1,"c":3,"d":4}}"#),
        ]
        for (base, other, merged) in cases {
            #expect(try render("{{jsonMerge '\(base)' '\(other)'}}") == merged, "\(base) + \(other)")
        }
        #expect(try render(#"{{#jsonMerge '{"id":456,"name":"bob","roles":["viewer"]}'}}{"data":[123, true]}{{/jsonMerge}}"#)
            == #"{"id":456,"name":"bob","roles":["viewer"],"data":[123,true]}"#)
        #expect(try render(#"{{jsonMerge '{"id":456,"name":"bob"}' '{"name":null}' removeNulls=true}}"#) == #"{"id":456}"#)
        #expect(try render(#"{{jsonMerge '{"id":456,"name":"bob"}' '{"name":null}'}}"#) == #"{"id":456,"name":null}"#)
        #expect(try render(#"{{jsonMerge 123 '{"id":321}'}}"#) == "[ERROR: Base JSON parameter must be a string]")
        #expect(try render(#"{{jsonMerge 'invalid json' '{"id":321}'}}"#) == "[ERROR: Base JSON is not valid JSON ('invalid json')]")
        #expect(try render(#"{{jsonMerge '[ { "id": 123 } ]' '{"id":321}'}}"#) == #"[ERROR: Base JSON is not a JSON object ('[ { "id": 123 } ]')]"#)
    }

    @Test("jsonRemove (JsonRemoveHelperTest): by filter, by member, nested filters; no change when the path selects nothing; errors")
    func jsonRemove() throws {
        let people = #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#
        #expect(try render("{{jsonRemove '\(people)' '$.[?(@.id == 123)]'}}") == #"[{"id":456,"name":"bob"},{"id":321,"name":"sam"}]"#)
        #expect(try render(#"{{jsonRemove '[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":123,"name":"sam"}]' '$[?(@.id == 123)]'}}"#)
            == #"[{"id":456,"name":"bob"}]"#)
        #expect(try render("{{jsonRemove '\(people)' '$.[?(@.id == 123)].name'}}") == #"[{"id":456,"name":"bob"},{"id":123},{"id":321,"name":"sam"}]"#)
        #expect(try render(#"{{jsonRemove '{"id":456,"name":"bob"}' '$.name'}}"#) == #"{"id":456}"#)
        #expect(try render(#"{{jsonRemove '[{"id":456,"name":"bob","roles":["admin","user"]},{"id":123,"name":"alice","roles":["admin","user"]}]' '$.[?(@.name == "alice")].roles[?(@ == "admin")]'}}"#)
            == #"[{"id":456,"name":"bob","roles":["admin","user"]},{"id":123,"name":"alice","roles":["user"]}]"#)
        for (json, path) in [(#"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#, "$.[?(@.id == 321)]"), (#"{"id":456}"#, "$.name"), ("true", "$.name"), ("null", "$.name"), ("123", "$.name")] {
            #expect(try render("{{jsonRemove '\(json)' '\(path)'}}") == json)
        }
        #expect(try render("{{jsonRemove 'invalid json' '$.name'}}") == "[ERROR: Input JSON string is not valid JSON ('invalid json')]")
        #expect(try render("{{jsonRemove 123 '$.name'}}") == "[ERROR: Input JSON must be a string]")
        #expect(try render(#"{{jsonRemove '{"id":1}' 'not json path'}}"#) == "[ERROR: JSONPath parameter is not a valid JSONPath expression ('not json path')]")
        #expect(try render(#"{{jsonRemove '{"id":1}' 123}}"#) == "[ERROR: JSONPath parameter must be a string]")
        #expect(try render(#"{{jsonRemove '{"id":1}' '$'}}"#) == "[ERROR: Delete operation cannot be applied to JSONPath expression ('$')]")
        #expect(try render(#"{{jsonRemove '{"id":1}'}}"#) == "[ERROR: A single JSONPath expression parameter must be supplied]")
    }

    @Test("jsonArrayAdd (JsonArrayAddHelperTest): an item at the end, the item as a block, flatten, maxItems, jsonPath; errors")
    func jsonArrayAdd() throws {
        let two = #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#
        #expect(try render(#"{{ jsonArrayAdd '\#(two)' '{"id":321,"name":"sam"}' }}"#) == #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#)
        #expect(try render(#"{{jsonArrayAdd '[]' '{"id":321,"name":"sam"}'}}"#) == #"[{"id":321,"name":"sam"}]"#)
        #expect(try render("{{jsonArrayAdd '[]' '[]'}}") == "[[]]")
        #expect(try render("{{jsonArrayAdd '[]' '[]' flatten=true}}") == "[]")
        #expect(try render("{{jsonArrayAdd '[]' '[null]' flatten=true}}") == "[null]")
        #expect(try render("{{#jsonArrayAdd '\(two)' flatten=false}}true{{/jsonArrayAdd}}") == #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},true]"#)
        #expect(try render(#"{{#jsonArrayAdd '\#(two)' flatten=true}}[{"id":321,"name":"sam"},{"id":666,"name":"jason"}]{{/jsonArrayAdd}}"#)
            == #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#)
        #expect(try render(#"{{jsonArrayAdd '\#(two)' '{"id":666,"name":"jason"}' maxItems=2}}"#) == #"[{"id":123,"name":"alice"},{"id":666,"name":"jason"}]"#)
        #expect(try render(#"{{jsonArrayAdd '{"people":[{"id":1}]}' '{"id":2}' jsonPath='$.people'}}"#) == #"{"people":[{"id":1},{"id":2}]}"#)
        #expect(try render(#"{{jsonArrayAdd 'null' '{"id":2}'}}"#) == "[ERROR: Base JSON is not valid JSON ('null')]")
        #expect(try render(#"{{jsonArrayAdd '{"id":456,"name":"bob"}' '{"id":2}'}}"#) == #"[ERROR: Target JSON is not a JSON array ('{"id":456,"name":"bob"}')]"#)
        #expect(try render("{{jsonArrayAdd 123 '{}'}}") == "[ERROR: Base JSON must be a string]")
        #expect(try render("{{#jsonArrayAdd '[]'}}invalid json{{/jsonArrayAdd}}") == "[ERROR: Item-to-add JSON is not valid JSON ('invalid json')]")
    }

    @Test("toJson (ToJsonHelperTest), array, arrayJoin, val and pickRandom")
    func listsAndValues() throws {
        #expect(try render("{{ toJson (array 1 2 3) }}") == "[ 1, 2, 3 ]")
        #expect(try render("{{ toJson null }}") == "")
        #expect(try render("{{ toJson 'null' }}") == "\"null\"")
        #expect(try render("{{ toJson true }}") == "true")
        #expect(try render("{{ toJson 123 }}") == "123")
        #expect(try render("{{ toJson request.headers }}") == "{\n  \"Content-Type\" : \"application/json\"\n}")
        #expect(try render("{{arrayJoin ',' (array 'a' 'b' 'c')}}") == "a,b,c")
        #expect(try render("{{arrayJoin ', ' 'a' 'b' prefix='[' suffix=']'}}") == "[a, b]")
        #expect(try render("{{#arrayJoin ';' (array 'x' 'y')}}<{{this}}>{{/arrayJoin}}") == "<x>;<y>")
        #expect(try render("{{arrayJoin ',' (array)}}") == "")
        #expect(try render("{{val request.query.missing or='fallback'}}") == "fallback")
        #expect(try render("{{val 'given' default='fallback'}}") == "given")
        #expect(try render("{{val 'kept' assign='name'}}-{{name}}") == "-kept")
        for _ in 0..<20 {
            #expect(["a", "b", "c"].contains(try render("{{pickRandom 'a' 'b' 'c'}}")))
            let two = try render("{{arrayJoin ',' (pickRandom (array 1 2 3) count=2)}}").split(separator: ",")
            #expect(two.count == 2 && Set(two).count == 2 && two.allSatisfy { ["1", "2", "3"].contains($0) })
        }
        #expect(try render("{{pickRandom}}") == "[ERROR: Must specify either a single list argument or a set of single value arguments.]")
    }

    @Test("With escaping (WireMock 2.35's default) {{…}} output is HTML-escaped and {{{…}}} is not; without it (WireMock 3's), neither is")
    func escaping() throws {
        #expect(try render(#"{{jsonMerge '{"a":1}' '{"b":"<2>"}'}}"#, escaping: true) == "{&quot;a&quot;:1,&quot;b&quot;:&quot;&lt;2&gt;&quot;}")
        #expect(try render(#"{{{jsonMerge '{"a":1}' '{"b":"<2>"}'}}}"#, escaping: true) == #"{"a":1,"b":"<2>"}"#)
        #expect(try render(#"{{jsonMerge '{"a":1}' '{"b":"<2>"}'}}"#, escaping: false) == #"{"a":1,"b":"<2>"}"#)
    }
}
