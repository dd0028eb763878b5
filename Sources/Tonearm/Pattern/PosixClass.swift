/// The POSIX classes, ASCII only (as in Java's `\p{Alpha}` and RE2's `[[:alpha:]]`), and the Unicode
/// letter and number categories `\p{L}` and `\p{N}` (stub folders' generated rules use them).
enum PosixClass {
    /// Every scalar in the general categories `categories`, worked out once (a pass over all scalars).
    private static func scalars(in categories: Set<Unicode.GeneralCategory>) -> ScalarRanges {
        var set = ScalarRanges()
        var runStart: UInt32?
        for value in UInt32(0)...0x110000 {
            let inside = Unicode.Scalar(value).map { categories.contains($0.properties.generalCategory) } ?? false
            if inside, runStart == nil { runStart = value }
            if !inside, let start = runStart {
                set.insert(start...(value - 1))
                runStart = nil
            }
        }
        return set
    }

    static let letters = scalars(in: [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter])
    static let numbers = scalars(in: [.decimalNumber, .letterNumber, .otherNumber])

    /// The set named `name` (lowercase: `alpha`, `digit`, …), or `nil` for an unknown name.
    static func named(_ name: String) -> ScalarRanges? {
        switch name {
        case "alpha": return ScalarRanges([65...90, 97...122])
        case "digit": return .digits
        case "alnum": return ScalarRanges([48...57, 65...90, 97...122])
        case "upper": return ScalarRanges(65...90)
        case "lower": return ScalarRanges(97...122)
        case "space": return .whitespace
        case "blank": return ScalarRanges([9...9, 32...32])
        case "punct": return ScalarRanges([33...47, 58...64, 91...96, 123...126])
        case "xdigit": return ScalarRanges([48...57, 65...70, 97...102])
        case "word": return .word
        case "cntrl": return ScalarRanges([0...31, 127...127])
        case "graph": return ScalarRanges(33...126)
        case "print": return ScalarRanges(32...126)
        case "ascii": return ScalarRanges(0...127)
        case "l", "letter": return letters
        case "n", "number": return numbers
        default: return nil
        }
    }
}
