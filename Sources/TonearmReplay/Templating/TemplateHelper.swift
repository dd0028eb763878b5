/// The helpers a template may call: WireMock's most used ones and Handlebars' built-in blocks. A name
/// outside this list is refused when the template is parsed (WireMock fails the request instead).
enum TemplateHelper: String, Sendable, CaseIterable {
    // Blocks.
    case `if`, unless, each, with
    // Comparisons and logic, as blocks or values.
    case eq, neq, gt, gte, lt, lte, and, or, not
    // WireMock's helpers.
    case jsonPath, parseJson, now, randomValue, math, regexExtract, base64, urlEncode, trim, upper, lower, size, lookup

    init?(name: String) {
        self.init(rawValue: name)
    }

    var name: String { rawValue }

    /// `{{now}}` and `{{randomValue}}` mean a call, not a path, even without arguments.
    var runsWithoutArguments: Bool { self == .now || self == .randomValue }

    /// Every name, for errors.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
