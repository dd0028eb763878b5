import Tonearm
import TonearmReplay
import TonearmWireMock

/// Renders a response template against one request, as a mapping's `response-template` does, without a
/// server: the engine alone, so each test names the template, the request and the text it must give.
enum TemplateTestRendering {
    /// The request most tests read: two values of `v`, one of `n`, a JSON body with a `<` to escape.
    static let queryURL = "/a/b%20c?v=one&v=two&n=5"
    static let jsonBody = #"{"a":{"b":[1,2,3]},"s":"x<y","o":{"x":1,"y":"z"},"e":[]}"#

    /// `template` rendered for a `method` request to `url` with `body`; escaping as WireMock 2.35 does by
    /// default (the expected values in these tests were read from the 2.35.1 jar).
    static func render(
        _ template: String, url: String = queryURL, method: String = "POST", body: String = jsonBody,
        escaping: Bool = true, limits: TemplateLimits = .standard
    ) throws -> String {
        let request = Request(method: method, url: url, headers: [HeaderField("Content-Type", "application/json")], body: Array(body.utf8))
        return try ResponseTemplate(parsing: template).render(TemplateRequestModel(request, baseURL: "http://localhost"), limits: limits, escaping: escaping)
    }

    /// The error parsing `template` throws, or `nil` when it parses.
    static func parseError(_ template: String) -> TemplateError? {
        do throws(TemplateError) {
            _ = try ResponseTemplate(parsing: template)
            return nil
        } catch {
            return error
        }
    }
}
