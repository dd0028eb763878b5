/// The literal text every match of an anchored pattern starts with, so most rules can be skipped with
/// a byte comparison instead of running the regular expression.
enum LiteralPrefix {
    /// The literal prefix of `pattern`, or "" when the pattern is not anchored with `^`, has an
    /// alternation, or opens with options that could change how literals match.
    static func of(_ pattern: String) -> String {
        let characters = Array(pattern.unicodeScalars)
        guard characters.first == "^", !characters.contains("|") else { return "" }
        var literal = String.UnicodeScalarView()
        var position = 1
        while position < characters.count {
            let character = characters[position]
            var next: Unicode.Scalar
            var consumed = 1
            if character == "\\" {
                guard position + 1 < characters.count, isEscapedLiteral(characters[position + 1]) else { break }
                next = characters[position + 1]
                consumed = 2
            } else if isMeta(character) {
                break
            } else {
                next = character
            }
            let after = position + consumed
            // A quantifier makes the character just read optional or repeated, so it is not part of
            // every match.
            if after < characters.count, isQuantifier(characters[after]) { break }
            literal.append(next)
            position = after
        }
        return String(literal)
    }

    private static func isMeta(_ scalar: Unicode.Scalar) -> Bool {
        "^$.[]()*+?{}|\\".unicodeScalars.contains(scalar)
    }

    private static func isQuantifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{"
    }

    /// Escapes that stand for the character itself (not classes like `\d` or anchors like `\b`).
    static func isEscapedLiteral(_ scalar: Unicode.Scalar) -> Bool {
        "^$.[]()*+?{}|\\/-:&=#%@!,;'\"~_ ".unicodeScalars.contains(scalar)
    }
}
