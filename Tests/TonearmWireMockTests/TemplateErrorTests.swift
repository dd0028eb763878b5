import Testing
import TonearmReplay
import TonearmWireMock

/// A template that cannot render is refused when its mapping is loaded, with the line and column a
/// user looks at: the tag that is wrong, or the end of the template where a block was never closed.
@Suite("Template parse errors and their positions")
struct TemplateErrorTests {
    private func error(_ template: String) throws -> TemplateError {
        try #require(TemplateTestRendering.parseError(template), "\(template) parses")
    }

    @Test("a block never closed: at the end of the template, naming the closing tag it needs")
    func unclosedBlock() throws {
        let found = try error("{{#if request.query.a}}\nx")
        #expect(found.position?.description == "line 2, column 2")
        #expect(found.expected == "{{/if}}")
        #expect(found.found == "the end of the template")
        #expect(found.description == "line 2, column 2: expected {{/if}}, found the end of the template")
    }

    @Test("a closing tag for another block, a closing tag outside any block, a second else")
    func misplacedClosingTags() throws {
        let wrongClose = try error("{{#if a}}x{{/each}}")
        #expect(wrongClose.position?.description == "line 1, column 11")
        #expect(wrongClose.expected == "{{/if}}" && wrongClose.found == "{{/each}}")
        let stray = try error("x{{/if}}")
        #expect(stray.position?.description == "line 1, column 2")
        #expect(stray.found == "{{/if}}")
        let secondElse = try error("{{#if a}}1{{else}}2{{else}}3{{/if}}")
        #expect(secondElse.position?.description == "line 1, column 20")
        #expect(secondElse.found == "a second {{else}}")
    }

    @Test("an unknown helper: at its tag, named, with the helpers there are")
    func unknownHelper() throws {
        let found = try error("ok\n  {{noSuchHelper 1}}")
        #expect(found.position?.description == "line 2, column 3")
        #expect(found.found == "\"noSuchHelper\"")
        #expect(found.expected.contains("jsonPath"))
        // A block must name a helper too, and WireMock helpers Tonearm does not render are refused alike.
        #expect(try error("{{#noSuchBlock}}x{{/noSuchBlock}}").found == "\"noSuchBlock\"")
        #expect(try error("{{xPath request.body '/a'}}").found == "\"xPath\"")
    }

    @Test("bad literals and tags: a string never closed, a subexpression never closed")
    func badLiterals() throws {
        let string = try error("line one\n{{upper 'abc}}")
        #expect(string.position?.description == "line 2, column 1")
        #expect(string.expected == "' closing the string")
        #expect(try error("{{upper (lower 'a'}}").expected == "\")\" closing the subexpression")
    }

    @Test("literal arguments checked at load: a JSONPath, a regular expression, math's operator")
    func literalArguments() throws {
        let path = try error("x {{jsonPath request.body '$.['}}")
        #expect(path.position?.description == "line 1, column 3")
        #expect(path.expected == "a JSONPath")
        #expect(try error("{{regexExtract request.body '(a'}}").expected == "a regular expression")
        #expect(try error("{{math 1 '^' 2}}").expected == "an operator: +, -, *, / or %")
    }

    @Test("columns count characters, not bytes")
    func columnsCountCharacters() throws {
        #expect(try error("é😀 {{nope 1}}").position?.description == "line 1, column 4")
    }

    @Test("what is not an error: an opening {{ never closed is text, as Handlebars leaves it")
    func unclosedOpeningIsText() throws {
        #expect(TemplateTestRendering.parseError("a {{b") == nil)
        #expect(try TemplateTestRendering.render("a {{b") == "a {{b")
    }
}
