extension LinearPattern {
    /// Refuses `pattern` as ``init(_:)`` would (the parser and the program-size cap are where a pattern
    /// is refused), without emitting the program or building its table, which is most of what compiling
    /// costs; but for the step-cost limit (``StepCostModel``), which needs the table built to know
    /// whether the pattern has bit-parallel steps at all, so only compiling applies it (the rule set's
    /// compile then names the rule and the pattern). For readers that check a file's
    /// patterns so that an error points into the document, before the rule set compiles them: a rule
    /// file of 10,000 rules was compiled twice, a WireMock mapping's `urlPathPattern` three times.
    package static func check(_ pattern: String) throws(PatternProblem) {
        try PatternProgram.checkSize(of: try PatternParser.parse(pattern), pattern: pattern)
    }
}
