import Testing
import TonearmReplay
import TonearmWireMock

/// `~` trimming the whitespace beside a tag; inside a block as the 2.35.1 jar's output for the same templates.
@Suite("Template whitespace control (~)")
struct TemplateWhitespaceControlTests {
    private func render(_ template: String) throws -> String {
        try TemplateTestRendering.render(template, url: "/t", method: "GET", body: "")
    }

    @Test("inside a block: the opening tag's ~}} and the closing tag's {{~ trim the body's ends")
    func insideABlock() throws {
        #expect(try render("[  {{#if true~}}  x  {{/if}}  ]") == "[  x    ]")
        #expect(try render("[  {{#if true}}  x  {{~/if}}  ]") == "[    x  ]")
        #expect(try render("[  {{#each (array 1 2)~}}  x  {{~/each}}  ]") == "[  xx  ]")
    }

    @Test("beside else: {{~else}} trims the end of the body, {{else~}} the start of the inverse")
    func besideElse() throws {
        #expect(try render("[  {{#if false}}  x  {{~else}}  y  {{/if}}  ]") == "[    y    ]")
        #expect(try render("[  {{#if false}}  x  {{else~}}  y  {{/if}}  ]") == "[  y    ]")
        #expect(try render("[  {{#if true}}  x  {{~else~}}  y  {{/if}}  ]") == "[    x  ]")
    }

    @Test("outside a block and beside output tags ~ trims the whitespace beside the tag")
    func outsideABlock() throws {
        // Handlebars' rule. The 2.35.1 jar is not consistent here (a template's first or last tag's `~`
        // outside a block may be left untrimmed), so the harness compares only the in-block cases.
        #expect(try render("{{request.method}}|[  {{~#if true}}  x  {{/if~}}  ]") == "GET|[  x  ]")
        #expect(try render("{{request.method}}|[  {{~request.method~}}  ]") == "GET|[GET]")
    }
}
