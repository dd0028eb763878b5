/// The helpers a template may call: WireMock's most used ones and Handlebars' built-in blocks. A name
/// outside this list is refused when the template is parsed (WireMock fails the request instead).
enum TemplateHelper: String, Sendable, CaseIterable {
    // Blocks.
    case `if`, unless, each, with
    // Comparisons and logic, as blocks or values.
    case eq, neq, gt, gte, lt, lte, and, or, not
    // WireMock's helpers.
    case jsonPath, parseJson, now, randomValue, math, regexExtract, base64, urlEncode, trim, upper, lower, size, lookup
    // WireMock 3's JSON and list helpers (``TemplateJSONHelpers``), and Handlebars' `assign` block.
    case formatJson, jsonMerge, jsonRemove, jsonArrayAdd, toJson, array, arrayJoin, pickRandom, val, assign

    init?(name: String) {
        self.init(rawValue: name)
    }

    var name: String { rawValue }

    /// `{{now}}`, `{{randomValue}}`, `{{formatJson}}`, `{{array}}` and `{{pickRandom}}` mean a call, not a path, even
    /// without arguments.
    var runsWithoutArguments: Bool { [.now, .randomValue, .formatJson, .array, .pickRandom].contains(self) }

    /// Helpers whose block (`{{#formatJson}}…{{/formatJson}}`) is their input, rendered to text, rather
    /// than a section shown when the helper's value is true.
    var takesBlockContent: Bool { [.formatJson, .jsonMerge, .jsonArrayAdd, .assign, .arrayJoin].contains(self) }

    /// Every name, for errors.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
