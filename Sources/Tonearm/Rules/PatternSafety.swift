/// Every check a rule's regular expression passes before it is used, in one place so importers that
/// validate patterns early (WireMock) refuse exactly what ``RuleSet`` refuses.
package enum PatternSafety {
    /// The deepest nesting of groups and character classes accepted. Swift's regex parser recurses per
    /// level and overflows the stack a few thousand levels down (sooner on a secondary thread); real
    /// patterns rarely go past four.
    package static let maximumNesting = 32

    /// Compiles `pattern`, or says why it cannot be used: nested too deeply, not a valid expression, or
    /// able to backtrack without bound (``BacktrackingCheck``).
    package static func compile(_ pattern: String) throws(PatternProblem) -> Regex<AnyRegexOutput> {
        let nesting = nestingDepth(of: pattern)
        if nesting > maximumNesting {
            throw PatternProblem(
                message: "groups and character classes nest \(nesting) levels deep; at most \(maximumNesting) are allowed")
        }
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw PatternProblem(message: "\(error)")
        }
        // A match cannot be interrupted, so a pattern that can backtrack without bound is refused here.
        if let problem = BacktrackingCheck.problem(in: pattern) { throw PatternProblem(message: problem) }
        return regex
    }

    /// The deepest run of unclosed `(` and `[`, skipping escaped characters. Counting brackets inside a
    /// class as nesting can only overstate the depth.
    static func nestingDepth(of pattern: String) -> Int {
        var depth = 0, deepest = 0, escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped { escaped = false; continue }
            switch scalar {
            case "\\": escaped = true
            case "(", "[":
                depth += 1
                deepest = max(deepest, depth)
            case ")", "]": depth = max(depth - 1, 0)
            default: break
            }
        }
        return deepest
    }
}

/// Why a pattern cannot be used.
package struct PatternProblem: Error, Sendable {
    /// What is wrong, e.g. the regex compiler's message or the backtracking it allows.
    package var message: String
}
