import Foundation
import Testing
import TonearmReplay
import TonearmWireMock

/// Each helper of WireMock 2.35.1 that Tonearm renders, with the text the 2.35.1 jar gave for the same
/// template and request (`POST /a/b%20c?v=one&v=two&n=5` with ``TemplateTestRendering/jsonBody``,
/// `--local-response-templating`, so `{{…}}` output is HTML-escaped).
@Suite("Template helpers, as WireMock 2.35.1 renders them")
struct TemplateHelperTests {
    private func render(_ template: String, url: String = TemplateTestRendering.queryURL) throws -> String {
        try TemplateTestRendering.render(template, url: url)
    }

    @Test("the request model: path, segments, query values by index, the URL as sent (escaped)")
    func requestModel() throws {
        #expect(try render("{{request.pathSegments.[1]}}|{{request.path}}|{{request.query.v.[1]}}|{{request.query.v}}|{{request.url}}|{{request.method}}")
            == "b c|/a/b c|two|one|/a/b%20c?v&#x3D;one&amp;v&#x3D;two&amp;n&#x3D;5|POST")
    }

    @Test("if/else: present values are true; 0, '' and an empty list are false, the text 'false' is true")
    func ifBlocks() throws {
        #expect(try render("{{#if request.query.n}}yes{{else}}no{{/if}}|{{#if request.query.missing}}yes{{else}}no{{/if}}") == "yes|no")
        #expect(try render("{{#if 0}}t{{else}}f{{/if}}|{{#if ''}}t{{else}}f{{/if}}|{{#if 'false'}}t{{else}}f{{/if}}|{{#if (array)}}t{{else}}f{{/if}}")
            == "f|f|t|f")
    }

    @Test("unless and with, with their else")
    func unlessAndWith() throws {
        #expect(try render("{{#unless request.query.missing}}none{{/unless}}|{{#unless false}}u{{else}}nu{{/unless}}") == "none|u")
        #expect(try render("{{#with request}}{{method}}{{/with}}|{{#with request.query.missing}}has{{else}}none{{/with}}") == "POST|none")
    }

    @Test("each over query values, a list, an object (@key) and nothing (else); @index, @first and @last")
    func eachBlocks() throws {
        #expect(try render("{{#each request.query.v}}{{@index}}={{this}}{{#if @last}}.{{else}},{{/if}}{{/each}}") == "0=one,1=two.")
        #expect(try render("{{#each (jsonPath request.body '$.o')}}{{@key}}:{{this}}{{#unless @last}},{{/unless}}{{/each}}") == "x:1,y:z")
        #expect(try render("{{#each (jsonPath request.body '$.e')}}x{{else}}empty{{/each}}") == "empty")
        #expect(try render("{{#each (array 'x' 'y')}}[{{this}}]{{/each}}") == "[x][y]")
        // Handlebars.java's @first and @last are the words "first" and "last", or nothing.
        #expect(try render("{{#each (array 'p' 'q')}}{{@index}}:{{@first}}:{{@last}};{{/each}}") == "0:first:;1::last;")
        #expect(try render("{{#each (array 'p' 'q')}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}}{{/each}}") == "FL")
    }

    @Test("lookup: a member by name, an element by index")
    func lookup() throws {
        #expect(try render("{{lookup request.query 'n'}}|{{lookup request.pathSegments 1}}|{{lookup request.query.v 1}}") == "5|b c|two")
        #expect(try render(#"{{lookup (parseJson '{"k":"v"}') 'k'}}"#) == "v")
    }

    @Test("eq, neq, gt, gte, lt, lte, and, or, not: as blocks and as values")
    func comparisons() throws {
        #expect(try render("{{#gt 3 2}}gt{{/gt}}{{#gte 2 2}}gte{{/gte}}{{#lt 1 2}}lt{{/lt}}{{#lte 3 2}}lte{{else}}notlte{{/lte}}") == "gtgteltnotlte")
        #expect(try render("{{#and true false}}and{{else}}notand{{/and}}{{#or false true}}or{{/or}}{{#not false}}not{{/not}}") == "notandornot")
        #expect(try render("{{#eq 2 2}}y{{else}}n{{/eq}}|{{#eq 'a' 'a'}}y{{else}}n{{/eq}}|{{eq 1 2}}|{{gt 10 9}}|{{lt 'a' 'b'}}") == "y|y|false|true|true")
        #expect(try render("{{not true}}|{{and true true}}|{{or false false}}|{{neq 1 2}}") == "false|true|false|true")
    }

    @Test("jsonPath: a value, an array written compact, an object pretty-printed, a filter's list, nothing when absent")
    func jsonPath() throws {
        #expect(try render("{{jsonPath request.body '$.a.b[1]'}}|{{jsonPath request.body '$.a.b'}}|{{jsonPath request.body '$.s'}}|{{{jsonPath request.body '$.s'}}}")
            == "2|[1,2,3]|x&lt;y|x<y")
        #expect(try render("{{jsonPath request.body '$.a'}}") == "{\n  &quot;b&quot; : [ 1, 2, 3 ]\n}")
        #expect(try render("{{jsonPath request.body '$.missing'}}|{{jsonPath request.body '$.a.b[?(@ > 1)]'}}") == "|[2,3]")
    }

    @Test("jsonPath length() and size() after a definite path: elements or members; nothing for text or nothing")
    func jsonPathLength() throws {
        #expect(try render("{{jsonPath request.body '$.a.b.length()'}}|{{jsonPath request.body '$.o.length()'}}|{{jsonPath request.body '$.length()'}}|{{jsonPath request.body '$.a.b.size()'}}|{{jsonPath request.body '$.missing.length()'}}|{{jsonPath request.body '$.s.length()'}}")
            == "3|2|4|3||")
    }

    @Test("parseJson: an object whose members templates read, a list written as Java writes one")
    func parseJson() throws {
        #expect(try render("{{#with (parseJson request.body)}}{{s}}{{/with}}|{{parseJson '[1,2]'}}") == "x&lt;y|[1, 2]")
    }

    @Test("math: integers stay integers, division rounds half away from zero, decimals stay decimals, text counts as 0")
    func math() throws {
        #expect(try render("{{math 7 '/' 2}}|{{math 7 '%' 3}}|{{math 1.5 '*' 2}}|{{math 10 '-' 15}}|{{math 'x' '+' 1}}") == "4|1|3.0|-5|1")
        #expect(try render("{{math 5 '/' 2}}|{{math -5 '/' 2}}|{{math 1 '/' 3}}|{{math 2 '*' 3}}|{{math 10 '+' 0.5}}") == "3|-3|0|6|10.5")
    }

    @Test("math on decimals as WireMock's BigDecimal: exact sums and products, quotients rounded half up to the dividend's decimals")
    func decimalMath() throws {
        #expect(try render("{{math 1 '-' 0.9}}|{{math 3 '*' 1.1}}|{{math 10.5 '/' 2}}|{{math 10 '/' 2.5}}|{{math 0.1 '+' 0.2}}|{{math 1.0 '/' 3}}",
                           url: "/t?d=1.25") == "0.1|3.3|5.3|4|0.3|0.3")
        #expect(try render("{{math -10.5 '/' 2}}|{{math 5.5 '%' 2}}|{{math request.query.d '+' 1}}|{{math 2.50 '*' 2}}|{{math 1 '/' 4.0}}",
                           url: "/t?d=1.25") == "-5.3|1.5|2.25|5.0|0")
    }

    @Test("regexExtract: the first match, groups into a variable, WireMock's error text when nothing matches")
    func regexExtract() throws {
        #expect(try render("{{regexExtract request.body '[0-9]+'}}|{{regexExtract 'abc-123' '([a-z]+)-([0-9]+)' 'parts'}}{{parts.0}}/{{parts.1}}") == "1|abc/123")
        #expect(try render("{{regexExtract 'abc' '[0-9]+'}}") == "[ERROR: Nothing matched [0-9]+]")
    }

    @Test("base64 (UTF-8, decode=true, padding=false) and urlEncode (form encoding, decode=true)")
    func encodings() throws {
        #expect(try render("{{base64 'héllo'}}|{{base64 'aMOpbGxv' decode=true}}|{{base64 'a' padding=false}}|{{base64 request.query.n}}")
            == "aMOpbGxv|héllo|YQ|NQ&#x3D;&#x3D;")
        #expect(try render("{{urlEncode 'é ~!'}}|{{urlEncode '%C3%A9+x' decode=true}}|{{urlEncode request.path}}") == "%C3%A9+%7E%21|é x|%2Fa%2Fb+c")
    }

    @Test("trim, upper, lower: Unicode case mapping as Java's; string literals keep backslashes as written")
    func text() throws {
        #expect(try render("{{trim '  padded  '}}|{{upper 'straße'}}|{{lower 'ÀB'}}|{{trim '\\t x \\n'}}") == "padded|STRASSE|àb|\\t x \\n")
    }

    @Test("size: characters of text, values of a query parameter, members, segments, list items")
    func size() throws {
        #expect(try render("{{size 'héllo'}}|{{size request.query.v}}|{{size (jsonPath request.body '$.o')}}|{{size request.query}}|{{size request.pathSegments}}|{{size (array 1 2 3)}}")
            == "5|2|2|2|2|3")
    }

    @Test("array written as Java writes a list; assign keeps a block's text; pickRandom picks among its arguments")
    func listsAndVariables() throws {
        #expect(try render("{{array 1 'b' 3}}") == "[1, b, 3]")
        #expect(try render("{{#assign 'greeting'}}hi {{request.method}}{{/assign}}{{greeting}}") == "hi POST")
        #expect(try render("{{pickRandom 'a' 'a'}}") == "a")
    }

    @Test("randomValue: the length and alphabet asked for")
    func randomValue() throws {
        let rendered = try render("{{randomValue length=8 type='ALPHANUMERIC'}}|{{randomValue length=5 type='NUMERIC'}}|{{randomValue length=4 type='ALPHABETIC' uppercase=true}}|{{randomValue length=6 type='HEXADECIMAL'}}|{{randomValue type='UUID'}}")
        let parts = rendered.split(separator: "|").map(String.init)
        try #require(parts.count == 5)
        #expect(parts[0].count == 8 && parts[0].allSatisfy { $0.isLowercase || $0.isNumber })
        #expect(parts[1].count == 5 && parts[1].allSatisfy(\.isNumber))
        #expect(parts[2].count == 4 && parts[2].allSatisfy(\.isUppercase))
        #expect(parts[3].count == 6 && parts[3].allSatisfy(\.isHexDigit))
        #expect(UUID(uuidString: parts[4]) != nil && parts[4] == parts[4].lowercased())
    }

    @Test("now: epoch milliseconds and unix seconds of the rendering's time; an offset moves the date")
    func now() throws {
        let before = Date().timeIntervalSince1970
        let rendered = try render("{{now format='epoch'}}|{{now format='unix'}}|{{now offset='-1 days' format='yyyy-MM-dd'}}")
        let after = Date().timeIntervalSince1970
        let parts = rendered.split(separator: "|").map(String.init)
        try #require(parts.count == 3)
        let milliseconds = try #require(Double(parts[0]))
        #expect(milliseconds >= (before * 1000).rounded(.down) && milliseconds <= after * 1000)
        let seconds = try #require(Double(parts[1]))
        #expect(seconds >= before.rounded(.down) && seconds <= after)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let yesterdays = [before, after].map { formatter.string(from: Date(timeIntervalSince1970: $0 - 86_400)) }
        #expect(yesterdays.contains(parts[2]))
    }
}
