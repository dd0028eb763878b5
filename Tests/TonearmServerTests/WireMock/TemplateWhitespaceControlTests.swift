import Testing
import TonearmReplay

/// `~` as WireMock's Handlebars.java honours it, read from the 2.35.1 jar: it trims whitespace inside a
/// block next to the tag, and nothing outside a block or beside an output tag (where Handlebars.js
/// would trim), so a template written against WireMock keeps its spaces.
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

    @Test("outside a block and beside output tags, ~ trims nothing")
    func outsideABlock() throws {
        #expect(try render("[  {{~#if true}}  x  {{/if~}}  ]") == "[    x    ]")
        #expect(try render("[  {{~request.method~}}  ]") == "[  GET  ]")
        #expect(try render("[  {{~{request.method}~}}  ]") == "[  GET  ]")
    }
}
