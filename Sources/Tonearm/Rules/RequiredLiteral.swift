/// The longest run of literal text every match of a pattern must contain, so a rule whose pattern has
/// no usable prefix (`/export\.csv$`) can still be skipped with a byte search instead of a regex run.
enum RequiredLiteral {
    /// The literal, or "" when the pattern has top-level alternation or inline options (either can make
    /// any literal optional or change how it matches). Text inside groups is never taken: a group may be
    /// optional, repeated zero times, or one branch of an alternation.
    static func of(_ pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        guard !hasInlineOptions(scalars) else { return "" }
        var scan = Scan()
        var position = 0
        while position < scalars.count, !scan.hasTopLevelAlternation {
            position = scan.step(scalars, at: position)
        }
        scan.endRun()
        return scan.hasTopLevelAlternation ? "" : String(scan.best)
    }

    /// `(?` not followed by `:` (a plain non-capturing group).
    private static func hasInlineOptions(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.indices.dropLast(2).contains { scalars[$0] == "(" && scalars[$0 + 1] == "?" && scalars[$0 + 2] != ":" }
    }

    private struct Scan {
        var best = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        var depth = 0
        var hasTopLevelAlternation = false

        mutating func endRun() {
            if run.count > best.count { best = run }
            run = String.UnicodeScalarView()
        }

        /// Reads the atom at `position` and returns where the next one starts.
        mutating func step(_ scalars: [Unicode.Scalar], at position: Int) -> Int {
            let scalar = scalars[position]
            switch scalar {
            case "\\":
                guard position + 1 < scalars.count, LiteralPrefix.isEscapedLiteral(scalars[position + 1]) else {
                    endRun()
                    return position + 2
                }
                return literal(scalars[position + 1], next: position + 2, in: scalars)
            case "[":
                endRun()
                return Self.endOfClass(scalars, from: position + 1)
            case "(":
                endRun()
                depth += 1
                return position + 1
            case ")":
                endRun()
                depth -= 1
                return position + 1
            case "|":
                endRun()
                if depth == 0 { hasTopLevelAlternation = true }
                return position + 1
            case ".", "^", "$", "*", "+", "?", "{", "}":
                endRun()
                return position + 1
            default:
                return literal(scalar, next: position + 1, in: scalars)
            }
        }

        /// A literal character: kept unless inside a group or made optional by a quantifier after it.
        private mutating func literal(_ scalar: Unicode.Scalar, next: Int, in scalars: [Unicode.Scalar]) -> Int {
            let quantified = next < scalars.count && "*+?{".unicodeScalars.contains(scalars[next])
            if depth > 0 || quantified {
                endRun()
            } else {
                run.append(scalar)
            }
            return next
        }

        /// The position after the `]` that closes a character class.
        private static func endOfClass(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
            var position = start
            if position < scalars.count, scalars[position] == "]" { position += 1 }
            while position < scalars.count {
                if scalars[position] == "\\" { position += 2; continue }
                if scalars[position] == "]" { return position + 1 }
                position += 1
            }
            return position
        }
    }
}
