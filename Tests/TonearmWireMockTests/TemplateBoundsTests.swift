import Testing
import TonearmReplay
import TonearmWireMock

/// A template or a request cannot make one rendering produce or work without bound: past the output
/// bound (UTF-8 bytes) or the step bound (nodes, helper calls, loop turns) the rendering stops with an
/// error saying which. Steps are counted, never timed, so these tests do not depend on the clock.
@Suite("Template output and step bounds")
struct TemplateBoundsTests {
    private func boundError(_ template: String, url: String = "/t", body: String = "", limits: TemplateLimits = .standard) -> TemplateError? {
        return #expect(throws: TemplateError.self) {
            try TemplateTestRendering.render(template, url: url, body: body, limits: limits)
        }
    }

    @Test("output up to the bound is written; one byte more stops the rendering, counted in UTF-8 bytes")
    func outputBound() throws {
        let ten = TemplateLimits(outputBytes: 10, steps: 1000)
        #expect(try TemplateTestRendering.render("{{{request.body}}}", body: "0123456789", limits: ten) == "0123456789")
        #expect(try TemplateTestRendering.render("{{{request.body}}}", body: "ééééé", limits: ten) == "ééééé")
        let over = boundError("{{{request.body}}}", body: "ééééé!", limits: ten)
        #expect(over?.description == "expected at most 10 bytes of output, found more")
        #expect(over?.position == nil)
    }

    @Test("a block's text that a helper takes counts against the output bound though it is not written")
    func capturedOutputCounts() {
        let five = TemplateLimits(outputBytes: 5, steps: 1000)
        #expect(boundError("{{#assign 'kept'}}{{{request.body}}}{{/assign}}", body: "0123456789", limits: five)?.expected == "at most 5 bytes of output")
    }

    @Test("randomValue longer than the output left is refused before it is generated, at its tag")
    func randomValueLength() {
        let hundred = TemplateLimits(outputBytes: 100, steps: 1000)
        let error = boundError("ab\n{{randomValue length=99}}", limits: hundred)
        #expect(error?.expected == "a randomValue length within the output limit (97 bytes)")
        #expect(error?.position?.description == "line 2, column 1")
    }

    @Test("the standard output bound, 4 MiB, stops a loop that repeats a large body")
    func standardOutputBound() {
        let values = (0..<100).map { "v=\($0)" }.joined(separator: "&")
        let body = String(repeating: "x", count: 64 << 10)
        let error = boundError("{{#each request.query.v}}{{{request.body}}}{{/each}}", url: "/t?\(values)", body: body)
        #expect(error?.expected == "at most \(4 << 20) bytes of output")
    }

    @Test("steps: nested loops within the bound render; the same past a small bound stop, saying so")
    func stepBound() throws {
        let template = "{{#each request.query.v}}{{#each request.query.v}}.{{/each}}{{/each}}"
        let url = "/t?v=1&v=2&v=3"
        #expect(try TemplateTestRendering.render(template, url: url, limits: TemplateLimits(outputBytes: 100, steps: 1000)) == ".........")
        let error = boundError(template, url: url, limits: TemplateLimits(outputBytes: 100, steps: 20))
        #expect(error?.description == "expected a rendering of at most 20 steps, found more (a loop over too much data?)")
    }

    @Test("the standard step bound, a million, stops three loops nested over a request's 200 values")
    func standardStepBound() {
        let values = (0..<200).map { "v=\($0)" }.joined(separator: "&")
        let template = "{{#each request.query.v}}{{#each request.query.v}}{{#each request.query.v}}.{{/each}}{{/each}}{{/each}}"
        #expect(boundError(template, url: "/t?\(values)")?.expected == "a rendering of at most 1000000 steps")
    }
}
