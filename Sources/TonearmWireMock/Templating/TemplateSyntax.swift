/// Where something is in a template's text: 1-based line and column (in characters), for errors.
package struct TemplatePosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    package let line: Int
    /// The column, from 1.
    package let column: Int

    package var description: String { "line \(line), column \(column)" }
}

/// A template that cannot be used: where, what was expected and what was found. Parse errors are found
/// when a mapping is loaded; render errors (a limit reached) when a request is answered.
package struct TemplateError: Error, Sendable, CustomStringConvertible {
    /// Where in the template, when the error has a place.
    package let position: TemplatePosition?
    /// What the template should have had there.
    package let expected: String
    /// What it had instead.
    package let found: String

    /// An error at `position` (none for one of the whole rendering).
    package init(position: TemplatePosition?, expected: String, found: String) {
        self.position = position
        self.expected = expected
        self.found = found
    }

    package var description: String {
        (position.map { "\($0): " } ?? "") + "expected \(expected), found \(found)"
    }
}

/// A parsed template: text, `{{expression}}` (HTML-escaped, as Handlebars does), `{{{expression}}}`
/// (raw) and blocks (`{{#if}}…{{else}}…{{/if}}`).
indirect enum TemplateNode: Sendable {
    case text(String)
    case output(TemplateExpression, escaped: Bool)
    case block(TemplateCall, body: [TemplateNode], inverse: [TemplateNode])
}

/// One value a tag computes: a path into the context, a literal, or a helper called with arguments.
indirect enum TemplateExpression: Sendable {
    case path(TemplatePath)
    case literal(TemplateValue)
    case call(TemplateCall)
}

/// A helper's name with its positional and named (`key=value`) arguments.
struct TemplateCall: Sendable {
    let helper: TemplateHelper
    let arguments: [TemplateExpression]
    let options: [String: TemplateExpression]
    let position: TemplatePosition
}

/// `request.query.a.[1]`, `this`, `@index`, `../name`: how many contexts up (`../`), whether it names a
/// data variable (`@index`), then the member names and indexes to follow.
struct TemplatePath: Sendable {
    var parents = 0
    var isData = false
    var segments: [String] = []
}
