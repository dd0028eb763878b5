import PropertyBased
import Testing
import TonearmReplay
import TonearmWireMock

/// WireMock 2.35's Handlebars HTML-escapes what `{{…}}` writes and leaves `{{{…}}}` as it is; WireMock 3
/// escapes neither (`escaping: false`). Text outside tags is never changed.
@Suite("Template escaping")
struct TemplateEscapingTests {
    private static let special = "<&>\"'`=é"

    @Test("{{…}} escapes &<>\"'`= as the 2.35.1 jar does; {{{…}}} writes the value as it is")
    func escapingAsWireMock2() throws {
        #expect(try TemplateTestRendering.render("{{request.body}}|{{{request.body}}}", body: Self.special)
            == "&lt;&amp;&gt;&quot;&#x27;&#x60;&#x3D;é|\(Self.special)")
    }

    @Test("without escaping (WireMock 3) both forms write the value as it is")
    func noEscapingAsWireMock3() throws {
        #expect(try TemplateTestRendering.render("{{request.body}}|{{{request.body}}}", body: Self.special, escaping: false)
            == "\(Self.special)|\(Self.special)")
    }

    @Test("property: text without {{ renders to itself, escaped or not")
    func textWithoutTagsIsUnchanged() async {
        // Every "{" is followed by a space, so no tag can open; "}}", "~", "!" and controls stay in.
        let texts = Gen.latin1.string(of: 0...80).map { $0.replacingOccurrences(of: "{", with: "{ ") }
        await propertyCheck(count: 200, input: texts) { text in
            let escaped = try TemplateTestRendering.render(text)
            let unescaped = try TemplateTestRendering.render(text, escaping: false)
            #expect(escaped == text)
            #expect(unescaped == text)
        }
    }

    @Test("property: {{{…}}} writes any body unchanged; {{…}} writes it with no raw &<>\"'`= and unescapes back to it")
    func bodiesRoundTrip() async {
        await propertyCheck(count: 200, input: Gen.latin1.string(of: 0...80)) { body in
            let raw = try TemplateTestRendering.render("{{{request.body}}}", body: body)
            #expect(raw == body)
            let escaped = try TemplateTestRendering.render("{{request.body}}", body: body)
            #expect(!escaped.contains { "<>\"'`=".contains($0) })
            var unescaped = escaped
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#x27;", "'"), ("&#x60;", "`"), ("&#x3D;", "="), ("&amp;", "&")] {
                unescaped = unescaped.replacingOccurrences(of: entity, with: character)
            }
            #expect(unescaped == body)
        }
    }
}
