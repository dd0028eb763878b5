import Tonearm

/// A WireMock `response-template` template, parsed once when its mapping is loaded and rendered per
/// request against WireMock's request model (``TemplateRequestModel``).
///
/// Parsing refuses what cannot work (an unknown helper, an unclosed block, a `jsonPath` that does not
/// parse, a regular expression that does not compile) with its line and column, so a mapping
/// with a broken template is refused when it is added, never when a request meets it. Rendering is
/// bounded by ``TemplateLimits``: a hostile template or request cannot make the answer grow, or the
/// work loop, without bound.
package struct ResponseTemplate: Sendable {
    let nodes: [TemplateNode]

    /// Parses `text`; throws where it is not a template this engine can render.
    package init(parsing text: String) throws(TemplateError) {
        nodes = try TemplateParser.parse(text)
        try TemplateChecks.check(nodes)
    }

    /// Whether `text` has anything to render: text without `{{` is sent as it is, with no parsing.
    package static func hasTags(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.indices.dropLast().contains { bytes[$0] == UInt8(ascii: "{") && bytes[$0 + 1] == UInt8(ascii: "{") }
        } ?? text.contains("{{")
    }

    /// The template's text for `request`; throws when a limit is reached. `escaping` says whether
    /// `{{…}}` output is HTML-escaped, as WireMock 2.35 does (WireMock 3 does not).
    package func render(_ request: TemplateRequestModel, limits: TemplateLimits = .standard, escaping: Bool = true) throws(TemplateError) -> String {
        var renderer = TemplateRenderer(root: request.value, limits: limits, escapes: escaping)
        try renderer.render(nodes)
        return renderer.output
    }
}

/// How much one rendering may produce and do.
package struct TemplateLimits: Sendable {
    /// The longest output, in UTF-8 bytes.
    package var outputBytes: Int
    /// How many nodes, helper calls and loop turns one rendering may take.
    package var steps: Int

    /// 4 MiB of output and a million steps: far above any stub's needs, far below what hurts a server.
    package static let standard = TemplateLimits(outputBytes: 4 << 20, steps: 1_000_000)

    package init(outputBytes: Int, steps: Int) {
        self.outputBytes = outputBytes
        self.steps = steps
    }
}

/// Load-time checks of literal arguments whose mistakes would otherwise show only per request.
private enum TemplateChecks {
    static func check(_ nodes: [TemplateNode]) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text: continue
            case .output(let expression, _): try check(expression)
            case .block(let call, let body, let inverse):
                try check(call)
                try check(body)
                try check(inverse)
            }
        }
    }

    private static func check(_ expression: TemplateExpression) throws(TemplateError) {
        if case .call(let call) = expression { try check(call) }
    }

    private static func check(_ call: TemplateCall) throws(TemplateError) {
        for argument in call.arguments { try check(argument) }
        for option in call.options.values { try check(option) }
        switch call.helper {
        case .jsonPath:
            if call.arguments.count > 1, case .literal(.string(let path)) = call.arguments[1] {
                do throws(JSONPathError) {
                    _ = try JSONPath(TemplateHelpers.countingFunction(path).path)
                } catch {
                    throw TemplateError(position: call.position, expected: "a JSONPath", found: "\"\(path)\" (\(error))")
                }
            }
        case .regexExtract:
            if call.arguments.count > 1, case .literal(.string(let pattern)) = call.arguments[1], (try? Regex(pattern)) == nil {
                throw TemplateError(position: call.position, expected: "a regular expression", found: "\"\(pattern)\"")
            }
        case .math:
            if call.arguments.count > 1, case .literal(.string(let operation)) = call.arguments[1], !["+", "-", "*", "/", "%"].contains(operation) {
                throw TemplateError(position: call.position, expected: "an operator: +, -, *, / or %", found: "\"\(operation)\"")
            }
        default:
            break
        }
    }
}
