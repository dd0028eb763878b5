/// The shape of a regular expression, as far as backtracking cost depends on it: which characters each
/// part can take, what repeats, what alternates. Read from the pattern text because Swift's `Regex` does
/// not expose its syntax tree.
///
/// The reading is conservative: anything it does not model exactly (Unicode properties, set operations
/// in classes, backreferences) is taken to match any character, so ``BacktrackingCheck`` may refuse a
/// pattern it cannot prove cheap but never passes one it misread. Patterns reach it only after `Regex`
/// has compiled them, so the syntax is known to be valid.
indirect enum RegexStructure {
    /// One character from a set.
    case character(ScalarSet)
    /// A zero-width test: `^`, `$`, `\b`, a lookaround.
    case assertion(AssertionKind)
    case sequence([RegexStructure])
    /// `source` is the alternation as written, for messages.
    case alternation([RegexStructure], source: String)
    /// `max == nil` is unbounded; `possessive` (`*+`, or an atomic group's content) gives back nothing.
    case repeated(RegexStructure, min: Int, max: Int?, possessive: Bool, source: String)
    /// `(?>…)` and backreferences: matched once, never re-entered by backtracking.
    case atomic(RegexStructure)

    /// Reads `pattern`.
    init(parsing pattern: String) {
        var parser = Parser(Array(pattern.unicodeScalars))
        self = parser.alternation()
    }

    /// Whether it can match the empty string.
    var isNullable: Bool {
        switch self {
        case .character: return false
        case .assertion: return true
        case .sequence(let items): return items.allSatisfy(\.isNullable)
        case .alternation(let branches, _): return branches.contains(where: \.isNullable)
        case .repeated(let body, let min, _, _, _): return min == 0 || body.isNullable
        case .atomic(let body): return body.isNullable
        }
    }

    /// Characters a match can start with.
    var firstCharacters: ScalarSet {
        switch self {
        case .character(let set): return set
        case .assertion: return .empty
        case .sequence(let items):
            var result = ScalarSet.empty
            for item in items {
                result.formUnion(item.firstCharacters)
                if !item.isNullable { break }
            }
            return result
        case .alternation(let branches, _): return branches.reduce(.empty) { $0.union($1.firstCharacters) }
        case .repeated(let body, _, let max, _, _): return max == 0 ? .empty : body.firstCharacters
        case .atomic(let body): return body.firstCharacters
        }
    }

    /// Every character a match can take.
    var characters: ScalarSet {
        switch self {
        case .character(let set): return set
        case .assertion: return .empty
        case .sequence(let items): return items.reduce(.empty) { $0.union($1.characters) }
        case .alternation(let branches, _): return branches.reduce(.empty) { $0.union($1.characters) }
        case .repeated(let body, _, let max, _, _): return max == 0 ? .empty : body.characters
        case .atomic(let body): return body.characters
        }
    }

    /// Whether a zero-width test appears in it.
    var hasAssertion: Bool {
        switch self {
        case .character: return false
        case .assertion: return true
        case .sequence(let items): return items.contains(where: \.hasAssertion)
        case .alternation(let branches, _): return branches.contains(where: \.hasAssertion)
        case .repeated(let body, _, _, _, _), .atomic(let body): return body.hasAssertion
        }
    }
}

/// Where a zero-width test holds.
enum AssertionKind {
    /// `^`, `\A`.
    case start
    /// `$`, `\z`, `\Z`.
    case end
    /// Word boundaries, lookarounds and the like.
    case other
}

/// Reads pattern text into ``RegexStructure``.
private struct Parser {
    let scalars: [Unicode.Scalar]
    var position = 0
    /// Set by `(?i)` anywhere: letters then match either case (kept for the rest of the pattern, which is
    /// never less conservative).
    var ignoresCase = false

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<min(position, scalars.count)])
        return String(view)
    }

    mutating func alternation() -> RegexStructure {
        let start = position
        var branches = [sequence()]
        while current == "|" {
            position += 1
            branches.append(sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches, source: text(from: start))
    }

    mutating func sequence() -> RegexStructure {
        var items: [RegexStructure] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            let start = position
            guard let atom = atom() else { continue }
            items.append(quantified(atom, from: start))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// A quantifier after `atom`, if any.
    mutating func quantified(_ atom: RegexStructure, from start: Int) -> RegexStructure {
        var result = atom
        while let bounds = quantifier() {
            var possessive = false
            if current == "?" { position += 1 } else if current == "+" { position += 1; possessive = true }
            result = .repeated(result, min: bounds.min, max: bounds.max, possessive: possessive, source: text(from: start))
        }
        return result
    }

    mutating func quantifier() -> (min: Int, max: Int?)? {
        switch current {
        case "*": position += 1; return (0, nil)
        case "+": position += 1; return (1, nil)
        case "?": position += 1; return (0, 1)
        case "{":
            var cursor = position + 1
            func number() -> Int? {
                var value: Int?
                while cursor < scalars.count, let digit = scalars[cursor].properties.numericType == .decimal
                        ? Int(String(scalars[cursor])) : nil {
                    // Saturate: bounds past a million behave like unbounded ones here.
                    value = Swift.min((value ?? 0) * 10 + digit, 1_000_000)
                    cursor += 1
                }
                return value
            }
            let lower = number()
            var upper = lower
            if cursor < scalars.count, scalars[cursor] == "," {
                cursor += 1
                upper = number()
            } else if lower == nil {
                return nil
            }
            guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
            position = cursor + 1
            return (lower ?? 0, upper)
        default: return nil
        }
    }

    /// One atom; `nil` for text that matches nothing (comments, option switches).
    mutating func atom() -> RegexStructure? {
        guard let scalar = current else { return nil }
        position += 1
        switch scalar {
        case "(": return group()
        case "[": return .character(characterClass())
        case ".": return .character(.dot)
        case "^": return .assertion(.start)
        case "$": return .assertion(.end)
        case "\\": return escape()
        case "*", "+", "?": return nil  // a stray quantifier Regex accepted; nothing to repeat
        default: return .character(literal(scalar))
        }
    }

    func literal(_ scalar: Unicode.Scalar) -> ScalarSet {
        var set = ScalarSet(scalar)
        if ignoresCase, scalar.isASCII, scalar.properties.isAlphabetic {
            for other in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
                other.unicodeScalars.forEach { set.insert($0) }
            }
        }
        return set
    }

    mutating func group() -> RegexStructure? {
        enum Kind { case plain, atomic, lookaround }
        var kind = Kind.plain
        if current == "?" {
            position += 1
            switch current {
            case ":", "|": position += 1
            case ">": position += 1; kind = .atomic
            case "=", "!": position += 1; kind = .lookaround
            case "#":
                while let next = current, next != ")" { position += 1 }
                position += 1
                return nil
            case "<" where peek(1) == "=" || peek(1) == "!": position += 2; kind = .lookaround
            case "<", "'", "P":
                let close: Unicode.Scalar = current == "'" ? "'" : ">"
                while let next = current, next != close { position += 1 }
                position += 1
            default:
                // Options such as `(?i)` or `(?i-s:…)`.
                while let next = current, next != ")", next != ":" {
                    if next == "i" { ignoresCase = true }
                    position += 1
                }
                if current == ")" { position += 1; return nil }
                position += 1
            }
        }
        let body = alternation()
        if current == ")" { position += 1 }
        switch kind {
        case .plain: return body
        case .atomic: return .atomic(body)
        case .lookaround: return .assertion(.other)
        }
    }

    mutating func escape() -> RegexStructure? {
        guard let scalar = current else { return .character(literal("\\")) }
        position += 1
        switch scalar {
        case "d": return .character(.digits)
        case "w": return .character(.word)
        case "s": return .character(.whitespace)
        case "A": return .assertion(.start)
        case "b", "B", "G", "K", "y", "Y": return .assertion(.other)
        case "z", "Z": return .assertion(.end)
        case "n": return .character(ScalarSet("\n"))
        case "t": return .character(ScalarSet("\t"))
        case "r": return .character(ScalarSet("\r"))
        case "f": return .character(ScalarSet("\u{0C}"))
        case "e": return .character(ScalarSet("\u{1B}"))
        case "a": return .character(ScalarSet("\u{07}"))
        case "Q":
            var items: [RegexStructure] = []
            while let next = current, !(next == "\\" && peek(1) == "E") {
                items.append(.character(literal(next)))
                position += 1
            }
            if current == "\\" { position += 2 }
            return .sequence(items)
        case "1"..."9", "k", "g":
            skipArgument(of: scalar)
            // A backreference repeats captured text: any characters, matched as a unit.
            return .atomic(.repeated(.character(.all), min: 0, max: nil, possessive: true, source: ""))
        case "x", "u", "U", "o", "0", "p", "P", "N", "X", "R", "D", "W", "S", "h", "H", "v", "V", "c":
            skipArgument(of: scalar)
            return .character(.all)
        default:
            return .character(literal(scalar))
        }
    }

    /// Skips what follows an escape letter: `{…}`, `<…>` or `'…'`, or the digits of `\x41`, `\u00e9`, `\12`.
    mutating func skipArgument(of letter: Unicode.Scalar) {
        let closing: [Unicode.Scalar: Unicode.Scalar] = ["{": "}", "<": ">", "'": "'"]
        if let open = current, let close = closing[open] {
            while let next = current, next != close { position += 1 }
            position += 1
            return
        }
        let digits: Int
        switch letter {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        case "0", "o": digits = 3
        case "p", "P": digits = 1
        case "1"..."9": digits = 2
        default: digits = 0
        }
        var taken = 0
        while taken < digits, let next = current, next.isASCII,
              next.properties.isASCIIHexDigit || (letter == "p" || letter == "P") && next.properties.isAlphabetic {
            position += 1
            taken += 1
        }
    }

    /// The set a `[…]` class matches; anything beyond single characters and ranges widens it to all.
    mutating func characterClass() -> ScalarSet {
        var negated = false
        if current == "^" { negated = true; position += 1 }
        var set = ScalarSet.empty
        var exact = true
        var first = true
        var depth = 0
        while let scalar = current {
            if scalar == "]", !first, depth == 0 { position += 1; break }
            first = false
            position += 1
            switch scalar {
            case "[":
                depth += 1
                exact = false
            case "]":
                depth -= 1
            case "\\":
                guard let escaped = current else { break }
                position += 1
                switch escaped {
                case "d": set.formUnion(.digits)
                case "w": set.formUnion(.word)
                case "s": set.formUnion(.whitespace)
                case "n": set.insert("\n")
                case "t": set.insert("\t")
                case "r": set.insert("\r")
                case _ where escaped.properties.isAlphabetic || escaped.properties.numericType != nil:
                    skipArgument(of: escaped)
                    exact = false
                default: set.formUnion(literal(escaped))
                }
            case "&" where current == "&", "~" where current == "~", "-" where current == "-":
                exact = false  // set operations
            default:
                if current == "-", let upper = peek(1), upper != "]", upper != "[", upper != "\\" {
                    position += 2
                    set.insertRange(scalar, upper, ignoringCase: ignoresCase)
                } else {
                    set.formUnion(literal(scalar))
                }
            }
        }
        guard exact else { return .all }
        return negated ? set.inverted : set
    }
}
