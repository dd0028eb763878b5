import PropertyBased
import Testing
@testable import Tonearm

/// On the syntax both accept, Tonearm's engine gives the same match/no-match as Swift `Regex` (the
/// engine rule patterns ran on before) for generated patterns and texts. Inputs stay ASCII without
/// newlines, where the documented differences (`\d`, `\w` are ASCII; `.` excludes only `\n`) cannot show,
/// and small, so the backtracking side stays quick. `\b` is left out: Swift's is Unicode's word-break
/// rule (a boundary between `/` and ` `, at the ends of an empty text), Tonearm's is Java's and RE2's
/// (between `\w` and not `\w`), which `LinearPatternTests` checks by example.
@Suite("Patterns agree with Swift Regex")
struct PatternDifferentialTests {
    /// A small deterministic generator (SplitMix64), so a failing seed reproduces.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let alphabet: [Character] = ["a", "b", "A", "/", "1", "-", " ", "."]

    static func atom(_ random: inout SplitMix, depth: Int) -> String {
        let atoms = ["a", "b", "A", "/", "1", "-", " ", "\\.", ".", "[ab]", "[^a/]", "[a-c1]", "\\d", "\\w", "\\s", "\\W", "[[:alpha:]]", "\\x61"]
        if depth < 2, Int.random(in: 0..<5, using: &random) == 0 {
            let opener = ["(", "(?:", "(?<g>", "(?i:"].randomElement(using: &random) ?? "("
            return opener + alternation(&random, depth: depth + 1) + ")"
        }
        return atoms.randomElement(using: &random) ?? "a"
    }

    static func sequence(_ random: inout SplitMix, depth: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let choice = Int.random(in: 0..<14, using: &random)
            if choice == 0 { text += ["^", "$", "\\A", "\\z"].randomElement(using: &random) ?? "^"; continue }
            text += atom(&random, depth: depth)
            if choice < 6 {
                text += ["*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "??", "{1,3}?"].randomElement(using: &random) ?? "*"
            }
        }
        return text
    }

    static func alternation(_ random: inout SplitMix, depth: Int) -> String {
        var branches = [sequence(&random, depth: depth)]
        while branches.count < 3, Int.random(in: 0..<4, using: &random) == 0 { branches.append(sequence(&random, depth: depth)) }
        return branches.joined(separator: "|")
    }

    static func pattern(_ random: inout SplitMix) -> String {
        let flags = Int.random(in: 0..<6, using: &random) == 0 ? "(?i)" : ""
        return flags + alternation(&random, depth: 0)
    }

    static func text(_ random: inout SplitMix) -> String {
        String((0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
    }

    @Test("generated patterns and texts: same match/no-match as Swift Regex")
    func agreesWithSwiftRegex() async {
        await propertyCheck(count: 400, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let pattern = Self.pattern(&random)
            guard let regex = try? Regex(pattern) else { return }
            let compiled: LinearPattern
            do throws(PatternProblem) {
                compiled = try LinearPattern(pattern)
            } catch {
                Issue.record("\(pattern.debugDescription) compiles in Swift Regex but was refused: \(error.message)")
                return
            }
            for _ in 0..<12 {
                let text = Self.text(&random)
                var visits = 0
                let expected = text.contains(regex)
                #expect(compiled.matches(text) == expected, "\(pattern.debugDescription) on \(text.debugDescription) (seed \(seed))")
                #expect(compiled.matches(text, usingTable: false, visits: &visits) == expected,
                        "\(pattern.debugDescription) on \(text.debugDescription), automaton only (seed \(seed))")
            }
        }
    }

    /// Literal prefixes ending in a word character, a non-word one, a `\n` and a multi-byte scalar, so
    /// the context the rest of the pattern starts in (`\b`, `\B`, `(?m)^`, `$` before a final newline)
    /// is each of those.
    static let prefixScalars = ["a", "/", "1", "-", " ", "\n", "é"]

    @Test("a literal prefix compared as bytes matches as the same pattern compiled whole")
    func separatedPrefixAgreesWithWholeProgram() async {
        await propertyCheck(count: 400, input: Gen.uint64(in: 0...UInt64.max)) { seed in
            var random = SplitMix(state: seed)
            let scalars = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.prefixScalars.randomElement(using: &random) ?? "a" }
            let literal = scalars.joined()
            let tails = ["", "\\b", "\\B", "(?m)^", "(?m)$", "$", "\\z", "^", "(?s).", "\\n?$", "(?m)^a"]
            let pattern = "^" + scalars.map { $0 == "\n" ? "\\n" : $0 }.joined()
                + (tails.randomElement(using: &random) ?? "") + "(?:" + Self.alternation(&random, depth: 1) + ")"
            let separated: LinearPattern, whole: LinearPattern
            do throws(PatternProblem) {
                separated = try LinearPattern(pattern)
                whole = try LinearPattern(pattern, separatingPrefix: false)
            } catch {
                Issue.record("\(pattern.debugDescription) was refused: \(error.message)")
                return
            }
            // The rest may start with literals too (a group's), which the prefix then takes in.
            #expect(separated.prefix.starts(with: literal.utf8), "\(pattern.debugDescription) has a literal prefix")
            for _ in 0..<12 {
                var text = Self.text(&random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: text = literal + text
                case 1: text = literal + (Self.prefixScalars.randomElement(using: &random) ?? "") + text
                case 2: text = String(literal.dropLast()) + text
                default: text = literal + "\n"
                }
                var visits = 0
                let expected = whole.matches(text, usingTable: false, visits: &visits)
                #expect(separated.matches(text) == expected, "\(pattern.debugDescription) on \(text.debugDescription) (seed \(seed))")
                #expect(separated.matches(text, usingTable: false, visits: &visits) == expected,
                        "\(pattern.debugDescription) on \(text.debugDescription), automaton only (seed \(seed))")
                #expect(separated.matchesBitParallel(text, visits: &visits) == expected,
                        "\(pattern.debugDescription) on \(text.debugDescription), bit-parallel (seed \(seed))")
                #expect(whole.matches(text) == expected, "\(pattern.debugDescription) on \(text.debugDescription), whole table (seed \(seed))")
            }
        }
    }
}
