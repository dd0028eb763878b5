extension LinearPattern {
    /// Refuses `pattern` exactly as ``init(_:)`` would (the parser and the program-size cap are where a
    /// pattern is refused; emitting the program and building its table cannot fail), without emitting
    /// or building either, which is most of what compiling costs. For readers that check a file's
    /// patterns so that an error points into the document, before the rule set compiles them: a rule
    /// file of 10,000 rules was compiled twice, a WireMock mapping's `urlPathPattern` three times.
    package static func check(_ pattern: String) throws(PatternProblem) {
        try PatternProgram.checkSize(of: try PatternParser.parse(pattern), pattern: pattern)
    }
}
